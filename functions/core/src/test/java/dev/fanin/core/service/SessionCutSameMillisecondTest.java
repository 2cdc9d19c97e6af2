package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A session filled (bounds.maxEventsPerWindow, onOverflow: split) inside a millisecond: event times of whole seconds
 * (an EventBridge envelope's {@code time}, epoch-second producers) put a burst in one. A cut session freezes just
 * after the last event it took, so an on-time event of that same millisecond left to the continuation fell inside the
 * cut session: late for it, a correction, or too late by the batch's own later events (a review found 13 of 21
 * on-time events in the side output). A session is never cut inside a millisecond: the full one takes the rest of it.
 */
class SessionCutSameMillisecondTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final TestClock clock = new TestClock(T0.plusSeconds(60));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);

    private FaninEngine engine(String watermark) {
        return InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 10m}", "2h", watermark,
                        "    bounds: {maxEventsPerWindow: 7, onOverflow: split}\n"),
                store, new RecordingEmitter(), new RecordingTimers(), clock);
    }

    @Test
    void onTimeEventsOfTheMillisecondTheBoundFilledAreNotTooLate() {
        FaninEngine engine = engine("{outOfOrderness: 0s, idleAfter: 3h}");
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            batch.add(message(i, T0));
        }
        batch.add(message(20, T0.plusSeconds(5)));

        BatchResult result = new IngestService(engine).handle(batch);

        assertThat(((RecordingSideOutput) engine.ports().sideOutput()).sideRecords()).as("side output").isEmpty();
        assertThat(result.tooLate()).isZero();
        assertThat(result.late()).isZero();
        assertThat(result.eventsAccepted()).isEqualTo(21);
        assertThat(sessionSizes()).as("the cut takes its whole millisecond; the next one continues it").containsExactly(20, 1);
        assertThat(countsById()).hasSize(21).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
    }

    @Test
    void aBurstInOneMillisecondIsCountedOnTimeInOneSession() {
        FaninEngine engine = engine("{outOfOrderness: 1h, idleAfter: 3h}");
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            batch.add(message(i, T0));
        }

        BatchResult result = new IngestService(engine).handle(batch);

        assertThat(result.late()).as("counted as late").isZero();
        assertThat(result.eventsAccepted()).isEqualTo(40);
        assertThat(sessionSizes()).containsExactly(40);
    }

    /** Five events in each of two seconds, bound 7: the second second's are all in the cut, the third's continue it. */
    @Test
    void theBoundFilledInALaterMillisecondTakesThatMillisecondWhole() {
        FaninEngine engine = engine("{outOfOrderness: 0s, idleAfter: 3h}");
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            batch.add(message(i, T0.plusSeconds(i / 5)));
        }

        BatchResult result = new IngestService(engine).handle(batch);

        assertThat(result.tooLate()).isZero();
        assertThat(result.late()).isZero();
        assertThat(sessionSizes()).containsExactly(10, 5);
    }

    private InboundMessage message(int i, Instant eventTime) {
        return InMemoryEngines.message("m" + i, InMemoryEngines.rawEvent("k", "e" + i, eventTime), clock.instant(), 1);
    }

    /** The key's sessions by id, committed heads and live copies alike (the live copy wins, as it is authoritative). */
    private List<StoredWindow> sessions() {
        Map<String, StoredWindow> byId = new TreeMap<>();
        store.all().forEach(w -> byId.put(w.ref().windowId(), w));
        store.loadLive("p", "k").sessions().forEach(w -> byId.put(w.ref().windowId(), w));
        return List.copyOf(byId.values());
    }

    private List<Integer> sessionSizes() {
        return sessions().stream().map(w -> w.eventIds().size()).toList();
    }

    private Map<String, Integer> countsById() {
        Map<String, Integer> ids = new HashMap<>();
        sessions().forEach(w -> w.eventIds().forEach(id -> ids.merge(id, 1, Integer::sum)));
        return ids;
    }
}
