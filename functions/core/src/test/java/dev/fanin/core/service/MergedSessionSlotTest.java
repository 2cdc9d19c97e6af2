package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A merge moves the survivor's creation time and deadline to the earlier session's; its open-window slot must still
 * go back to the admission epoch that counted it (a review found the older session's epoch freed twice, to -1, and the
 * survivor's never: one slot counted with no window open until that epoch retired).
 */
class MergedSessionSlotTest {

    private final TestClock clock = new TestClock(Instant.parse("2026-11-29T10:09:00Z"));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final FaninEngine engine = InMemoryEngines.of(
            InMemoryEngines.rawPipeline("{type: session, gap: 60s}", "10m", "{outOfOrderness: 5m, idleAfter: 1h}",
                    "    allowedLateness: 1h\n    bounds: {maxOpenWindows: 10}\n"),
            store, emitter, new RecordingTimers(), clock);
    private final IngestService ingest = new IngestService(engine);
    private int seq;

    @Test
    void aSurvivorOpenedInALaterEpochThanTheSessionItAbsorbsReturnsItsOwnSlot() {
        ingest(event("b", "2026-11-29T10:09:00Z"));  // session B, opened at 10:09 (epoch of 10:00-10:10)
        clock.advance(Duration.ofMinutes(2));
        ingest(event("a", "2026-11-29T10:07:30Z"));  // session A, earlier id, opened at 10:11 (epoch of 10:10-10:20)
        assertThat(store.slotsByEpoch("p")).hasSize(2).containsValues(1L, 1L);
        clock.advance(Duration.ofSeconds(10));

        ingest(event("c", "2026-11-29T10:08:20Z"));  // bridges them: A survives with B's creation time and deadline
        assertThat(store.openWindows("p")).isEqualTo(1);

        SweepService sweep = new SweepService(engine);
        for (int i = 0; i < 15; i++) {
            clock.advance(Duration.ofMinutes(1));
            sweep.sweep(clock.instant().plusSeconds(50));
        }
        assertThat(emitter.emitted()).hasSize(1);
        assertThat(store.openWindows("p")).isZero();
        assertThat(store.slotsByEpoch("p").values()).as("every epoch back to zero, none below").containsOnly(0L);
    }

    private InboundMessage event(String id, String eventTime) {
        return InMemoryEngines.message("m" + seq++, InMemoryEngines.rawEvent("k", id, Instant.parse(eventTime)), clock.instant(), 1);
    }

    private void ingest(InboundMessage message) {
        assertThat(ingest.handle(List.of(message)).failedMessageIds()).isEmpty();
    }
}
