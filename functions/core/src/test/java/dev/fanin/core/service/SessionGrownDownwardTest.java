package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A session keeps the id of the event that opened it while out-of-order events extend it to earlier times, so its id
 * can lie more than a gap after its start. An event later arriving between that start and the id lies inside the
 * committed session and is late for it: it must not open a second, overlapping session. Found by the disorder
 * helper's OutageSimulationTest (seeds 11 and 22: sessions of a key overlapping, events counted in two windows) on the
 * live-item code: the committed sessions around an event are read by sort key ({@code S<id>}) below {@code S<t + gap>},
 * which misses the one session whose id is beyond that but whose start is not. Fails today; the fix is to read also
 * the first committed session at or after that bound (committed sessions are disjoint and each id lies in its own
 * bounds, so only that one can start before it), in the adapter, InMemoryWindowStore and the bench's metered store.
 */
class SessionGrownDownwardTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String PIPELINE = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
            + "    eventTime: {path: $.t}\n    window: {type: session, gap: 30s}\n    triggers: {maxLifetime: 30m}\n"
            + "    watermark: {outOfOrderness: 10m, idleAfter: 1h}\n    allowedLateness: 10m\n"
            + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";

    private final TestClock clock = new TestClock(T0.plusSeconds(120));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final FaninEngine engine = InMemoryEngines.of(PIPELINE, store, new RecordingEmitter(), new RecordingTimers(), clock);

    @Test
    void anEventBetweenACommittedSessionsStartAndItsIdIsLateForItAndOpensNoOverlappingSession() {
        IngestService ingest = new IngestService(engine);
        for (long[] e : new long[][] {{1, 60}, {2, 35}, {3, 10}}) {
            ingest.handle(List.of(InMemoryEngines.message("m" + e[0], InMemoryEngines.rawEvent("k", "e" + e[0], T0.plusSeconds(e[1])),
                    clock.instant(), 1)));
        }
        WindowRef session = new WindowRef("p", "k", WindowRef.sessionId(T0.plusSeconds(60).toEpochMilli()));
        assertThat(new OperatorService(engine).close(session, "closing to test its frozen bounds").outcome())
                .isEqualTo(OperatorService.Outcome.CLOSED);

        // A later session of the key, committed too: the grown one is no longer the key's latest committed session.
        ingest.handle(List.of(InMemoryEngines.message("m5", InMemoryEngines.rawEvent("k", "e5", T0.plusSeconds(300)), clock.instant(), 1)));
        WindowRef later = new WindowRef("p", "k", WindowRef.sessionId(T0.plusSeconds(300).toEpochMilli()));
        assertThat(new OperatorService(engine).close(later, "closing the later one").outcome()).isEqualTo(OperatorService.Outcome.CLOSED);

        ingest.handle(List.of(InMemoryEngines.message("m4", InMemoryEngines.rawEvent("k", "e4", T0.plusSeconds(12)), clock.instant(), 1)));

        assertThat(store.all()).extracting(StoredWindow::ref).as("two sessions for the key, none overlapping").containsExactlyInAnyOrder(session, later);
        assertThat(store.loadLive("p", "k").sessions()).isEmpty();
    }
}
