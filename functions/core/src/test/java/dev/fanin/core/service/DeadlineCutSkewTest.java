package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two workers whose clocks straddle a session's hard deadline (containers' clocks are skewed). The one past it plans
 * the session as cut there (KeySessions) and opens the session that continues it inside its gap; the cut was not
 * stored, so the one behind claimed the session by its gap, whole, overlapping the continuation, and a redelivered
 * event inside both was counted by both (a review). The ingest that plans the cut now claims the session in the same
 * write, frozen where it cut it.
 */
class DeadlineCutSkewTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: session, gap: 1m}", "2m",
            "{outOfOrderness: 0s, idleAfter: 5m}",
            "    allowedLateness: 1m\n    aggregations: [{name: n, type: count}, {name: ids, type: distinct-ids}]\n");

    private final TestClock fastClock = new TestClock(T0);
    private final TestClock slowClock = new TestClock(T0);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final FaninEngine fast = InMemoryEngines.of(YAML, new InMemoryWindowStore(4), emitter, new RecordingTimers(), fastClock);
    private final FaninEngine slow = InMemoryEngines.elsewhere(fast, slowClock);

    @Test
    void aSessionCutAtItsDeadlineByOneClockIsNotClosedWholeByAnother() throws Exception {
        fastClock.set(T0.plusSeconds(1));
        slowClock.set(T0.plusSeconds(1));
        assertThat(deliver(fast, "m0", "a", "e0", T0).eventsAccepted()).isEqualTo(1);   // S<T0>: [T0, T0+60s), deadline T0+121s
        Instant deadline = T0.plusSeconds(121);

        fastClock.set(deadline.plusSeconds(1));                                       // the fast worker: past the deadline
        slowClock.set(deadline.minusSeconds(1));                                      // the slow one: 2 s behind
        deliver(fast, "mb", "b", "x", T0.plusSeconds(70));                            // watermark T0+70s, past S's end
        BatchResult e1 = deliver(fast, "m1", "a", "e1", T0.plusSeconds(30));          // continuation [T0+30s, T0+90s)
        assertThat(e1.eventsAccepted()).isEqualTo(1);

        new SweepService(slow).sweep(slowClock.instant().plusSeconds(50));            // before: S claimed by its gap, whole

        // The original message of e1 delivered again (SQS at least once).
        BatchResult again = deliver(fast, "m1", "a", "e1", T0.plusSeconds(30));

        for (int i = 0; i < 20; i++) {
            fastClock.advance(Duration.ofMinutes(1));
            slowClock.advance(Duration.ofMinutes(1));
            new SweepService(fast).sweep(fastClock.instant().plusSeconds(50));
        }
        long e1Counted = 0;
        // The latest revision of each session of key a: does more than one session count e1?
        Map<String, JsonNode> latest = new java.util.TreeMap<>();
        for (var e : emitter.emitted()) {
            JsonNode agg = JSON.readTree(e.detailJson());
            if (agg.path("key").asText().equals("a")) {
                latest.put(agg.path("window").path("id").asText(), agg);
            }
        }
        for (JsonNode agg : latest.values()) {
            for (JsonNode id : agg.path("aggregations").path("ids").path("ids")) {
                if (id.asText().equals("e1")) {
                    e1Counted++;
                }
            }
        }
        assertThat(e1Counted).as("e1 is counted by one session of key a only").isEqualTo(1);
        assertThat(again.eventsAccepted()).as("the redelivered copy is a duplicate").isZero();
    }

    private BatchResult deliver(FaninEngine engine, String messageId, String key, String eventId, Instant eventTime) {
        Instant now = engine.clock().instant();
        return new IngestService(engine).handle(List.of(new InboundMessage(messageId,
                InMemoryEngines.rawEvent(key, eventId, eventTime), 1, now, now, Map.of())));
    }
}
