package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One batch of on-time events of one session key, more than bounds.maxEventsPerWindow (onOverflow: split): the
 * session is cut at the bound (SIZE_LIMIT) in that very write, and the rest continue it at once, in the same
 * invocation (as a bridge's events are planned again, SessionBridgeBoundTest). Before (a review), each delivery
 * counted one bound's worth and failed the rest back to SQS: a burst of N events needed ceil(N / bound) deliveries,
 * and past MaxReceiveCount (default 5) the rest was dead-lettered as RETRIES_EXHAUSTED: SIZE_LIMIT_SPLIT.
 */
class SessionBurstOverBoundTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final TestClock clock = new TestClock(T0.plusSeconds(60));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 10m}", "2h",
            "{outOfOrderness: 1h, idleAfter: 3h}", "    bounds: {maxEventsPerWindow: 7, onOverflow: split}\n"),
            store, new RecordingEmitter(), new RecordingTimers(), clock);

    @Test
    void aBurstOverTheBoundIsCountedInOneDelivery() {
        IngestService ingest = new IngestService(engine);
        List<InboundMessage> burst = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            burst.add(InMemoryEngines.message("m" + i, InMemoryEngines.rawEvent("k", "e" + i, T0.plusSeconds(i)), clock.instant(), 1));
        }
        BatchResult first = ingest.handle(burst);
        assertThat(first.failedMessageIds()).as("failed back to SQS on the first delivery").isEmpty();

        // By session id: a committed head and, until its removal, the same session's live copy.
        java.util.Map<String, StoredWindow> byId = new java.util.TreeMap<>();
        store.all().forEach(w -> byId.put(w.ref().windowId(), w));
        store.loadLive("p", "k").sessions().forEach(w -> byId.put(w.ref().windowId(), w));
        List<StoredWindow> sessions = List.copyOf(byId.values());
        java.util.Map<String, Integer> ids = new java.util.HashMap<>();
        sessions.forEach(w -> w.eventIds().forEach(id -> ids.merge(id, 1, Integer::sum)));
        assertThat(ids).as("every event in one session").hasSize(40).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
        assertThat(sessions).as("cut at the bound, each continued").allSatisfy(w -> assertThat(w.eventIds().size()).isLessThanOrEqualTo(7));
    }

    /** The same burst, redelivered as SQS would (attempt n, 2 minutes apart) up to MaxReceiveCount. */
    @Test
    void aBurstOverTheBoundIsNotDeadLettered() {
        IngestService ingest = new IngestService(engine);
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            left.add(i);
        }
        int deadLettered = 0;
        int maxReceive = engine.settings().maxReceiveCount();
        for (int attempt = 1; attempt <= maxReceive && !left.isEmpty(); attempt++) {
            List<InboundMessage> batch = new ArrayList<>();
            for (int i : left) {
                batch.add(InMemoryEngines.message("m" + i, InMemoryEngines.rawEvent("k", "e" + i, T0.plusSeconds(i)), clock.instant(), attempt));
            }
            BatchResult r = ingest.handle(batch);
            deadLettered += r.deadLettered();
            List<Integer> next = new ArrayList<>();
            for (String id : r.failedMessageIds()) {
                next.add(Integer.parseInt(id.substring(1)));
            }
            left = next;
            clock.advance(java.time.Duration.ofMinutes(2));
        }
        assertThat(deadLettered).as("on-time events dead-lettered (maxReceiveCount %d)", maxReceive).isZero();
        assertThat(left).as("still failing after maxReceiveCount deliveries").isEmpty();
    }
}
