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
 * A closed window's late events claimed as a revision of their own (a split's continuation that closed unemitted)
 * take no open-window slot, as a correction takes none: a review found the commit of such a claim giving back a slot
 * no one held, so a further window passed {@code maxOpenWindows}.
 */
class ContinuationSlotTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final FaninEngine engine = InMemoryEngines.of(
            InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "10m", "{outOfOrderness: 0s, idleAfter: 1h}",
                    "    allowedLateness: 30m\n    late: {tooLate: side-output, correctionDelay: 1m}\n"
                    + "    bounds: {maxOpenWindows: 2, maxEventsPerWindow: 2, onOverflow: split}\n"),
            store, emitter, new RecordingTimers(), clock);
    private final IngestService ingest = new IngestService(engine);
    private final SweepService sweep = new SweepService(engine);
    private int seq;

    @Test
    void theLateRevisionOfAContinuationClosedEmptyGivesBackNoSlot() {
        ingest(event("k", "a", T0.plusSeconds(5)), event("k", "b", T0.plusSeconds(10)));  // full: split, r0
        sweepFor(Duration.ofSeconds(30));
        clock.set(T0.plusSeconds(120));
        ingest(event("k2", "x", T0.plusSeconds(120)));  // the watermark passes k's end: its empty continuation closes
        sweepFor(Duration.ofMinutes(1));
        assertThat(store.openWindows("p")).as("k2's window").isEqualTo(1);

        ingest(event("k", "late", T0.plusSeconds(30)));
        sweepFor(Duration.ofMinutes(3));

        assertThat(emitter.emitted()).extracting(e -> e.aggregateId()).anyMatch(id -> id.endsWith("/r1"));
        assertThat(store.openWindows("p")).as("k2's window still holds its slot").isEqualTo(1);
        assertThat(ingest.handle(List.of(event("k3", "y", T0.plusSeconds(125)))).failedMessageIds()).isEmpty();
        assertThat(ingest.handle(List.of(event("k4", "z", T0.plusSeconds(126)))).failedMessageIds())
                .as("refused: k2 and k3 hold the two slots").hasSize(1);
    }

    private void sweepFor(Duration d) {
        Instant until = clock.instant().plus(d);
        while (clock.instant().isBefore(until)) {
            clock.advance(Duration.ofSeconds(15));
            sweep.sweep(clock.instant().plusSeconds(10));
        }
    }

    private InboundMessage event(String key, String id, Instant eventTime) {
        return InMemoryEngines.message("m" + seq++, InMemoryEngines.rawEvent(key, id, eventTime), clock.instant(), 1);
    }

    private void ingest(InboundMessage... messages) {
        assertThat(ingest.handle(List.of(messages)).failedMessageIds()).isEmpty();
    }
}
