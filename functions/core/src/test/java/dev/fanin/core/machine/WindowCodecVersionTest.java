package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The versioned state document: written at {@link WindowCodec#STATE_VERSION}, read back by the decoder of its version. */
class WindowCodecVersionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final PipelineConfig pipeline = PipelineFixture.pipeline().build();
    private final WindowMachine machine = new WindowMachine(pipeline, Duration.ofSeconds(30));
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", "T1");

    private StoredWindow storedWithOneEvent() {
        WindowState open = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
        return WindowCodec.encode(machine.ingest(open, List.of(event("e0", T0.toEpochMilli())), T0.toEpochMilli(), T0).next());
    }

    @Test
    void encodeWritesTheCurrentVersionAndDecodeReadsItBack() throws Exception {
        StoredWindow stored = storedWithOneEvent();

        assertThat(JSON.readTree(stored.state()).path("v").intValue()).isEqualTo(WindowCodec.STATE_VERSION).isEqualTo(1);
        WindowState back = WindowCodec.decode(stored, pipeline);
        assertThat(back.revisionEvents()).isEqualTo(1);
        assertThat(WindowCodec.encode(back).state()).isEqualTo(stored.state());
    }

    @Test
    void aStateWrittenBeforeTheVersionFieldIsVersion1() throws Exception {
        StoredWindow stored = storedWithOneEvent();
        ObjectNode legacy = (ObjectNode) JSON.readTree(stored.state());
        legacy.remove("v");

        WindowState back = WindowCodec.decode(withState(stored, legacy.toString()), pipeline);

        assertThat(back.revisionEvents()).isEqualTo(1);
        assertThat(back.openedAt()).isEqualTo(T0);
    }

    @Test
    void aNewerVersionIsRefusedByNameNotMisread() throws Exception {
        StoredWindow stored = storedWithOneEvent();
        ObjectNode newer = (ObjectNode) JSON.readTree(stored.state());
        newer.put("v", 2);

        assertThatThrownBy(() -> WindowCodec.decode(withState(stored, newer.toString()), pipeline))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has state version 2; this fanin reads versions up to 1");
    }

    private static StoredWindow withState(StoredWindow w, String state) {
        return new StoredWindow(w.ref(), w.version(), w.status(), w.dueAt(), w.expiresAt(), w.fence(), w.leaseUntil(), w.eventIds(),
                state, w.layout());
    }
}
