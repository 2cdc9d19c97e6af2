package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * {@link WindowCodec}: every state the machine produces survives the store's encoding exactly, in each status and
 * with each optional part (timer chain, claim, pending correction, absorbed sessions, late events) present or not.
 */
class WindowCodecTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final PipelineConfig SESSIONS = PipelineFixture.pipeline().window(new WindowSpec.Session(Duration.ofSeconds(30)))
            .count(3).build();
    private static final WindowMachine MACHINE = new WindowMachine(SESSIONS, LEASE);

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    private static WindowState session(String id, long t) {
        WindowRef ref = new WindowRef("test-pipe", "key-1", id);
        WindowState open = MACHINE.open(ref, new Interval(t, t + 30_000), T0);
        return stored(MACHINE.ingest(open, List.of(event(id + "-a", t)), t - 5_000, T0), open);
    }

    /** One window through its life: open with a timer chain, merged with another, claimed, closed, late event pending. */
    static Stream<WindowState> states() {
        long t = T0.toEpochMilli();
        WindowState open = session(WindowRef.sessionId(t), t);
        WindowState absorbed = session(WindowRef.sessionId(t + 40_000), t + 40_000);
        WindowState merged = SessionMerge.absorb(open, absorbed);
        WindowState bridged = stored(MACHINE.ingest(merged, List.of(event("bridge", t + 20_000)), t, T0.plusSeconds(2)), merged);
        WindowState closed = stored(MACHINE.commit(bridged, bridged.fence(), t, T0.plusSeconds(3)), bridged);
        WindowState pending = stored(MACHINE.ingest(closed, List.of(event("late", t + 1)), t + 80_000, T0.plusSeconds(4)), closed);
        return Stream.of(open, LegacyMerged.of(absorbed), bridged, closed, pending);
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("states")
    void everyStateTheMachineProducesRoundTripsExactly(WindowState state) {
        StoredWindow stored = WindowCodec.encode(state);

        assertThat(stored.status()).isEqualTo(state.status());
        assertThat(stored.fence()).isEqualTo(state.fence());
        assertThat(stored.dueAt()).isEqualTo(state.dueAt());
        WindowState decoded = WindowCodec.decode(stored, SESSIONS);
        // The claim's emission comes back as parsed JSON (an int where a long was put): equal as text.
        assertThat(decoded).usingRecursiveComparison().ignoringFields("lifecycle.claim").isEqualTo(state);
        assertThat(String.valueOf(decoded.claim())).isEqualTo(String.valueOf(state.claim()));
        assertThat(WindowCodec.encode(decoded)).isEqualTo(stored);
    }

    @Test
    void theLifeAboveHasEveryOptionalPart() {
        List<WindowState> life = states().toList();
        assertThat(life).extracting(WindowState::status)
                .containsExactly(WindowStatus.OPEN, WindowStatus.MERGED, WindowStatus.CLAIMED, WindowStatus.CLOSED, WindowStatus.CLOSED);
        assertThat(life.get(0).timer()).isNotNull();
        assertThat(life.get(2).claim()).isNotNull();
        assertThat(life.get(2).absorbed()).hasSize(1);
        assertThat(life.get(4).pendingSince()).isNotNull();
        assertThat(life.get(4).lateEvents()).isEqualTo(1);
        assertThat(life.get(0).lateEvents()).isZero();
    }

    @Test
    void anUnreadableStateNamesTheWindow() {
        StoredWindow w = WindowCodec.encode(states().findFirst().orElseThrow());
        StoredWindow broken = new StoredWindow(w.ref(), w.version(), w.status(), w.dueAt(), w.expiresAt(), w.fence(), w.leaseUntil(),
                w.eventIds(), "{not json", w.layout());

        assertThatThrownBy(() -> WindowCodec.decode(broken, SESSIONS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(w.ref().toString()).hasMessageContaining("unreadable state");
    }
}
