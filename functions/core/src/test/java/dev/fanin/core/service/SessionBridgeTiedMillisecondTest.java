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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A bridge between two sessions that hold more than bounds.maxEventsPerWindow between them is not merged: the earliest
 * is cut and the bridge continues it (SessionBridgeBoundTest). With it came an event in the later session's last
 * millisecond: a full session takes the rest of that millisecond past the bound (session rule 7), and the merged
 * session, full before the batch, took it, so the merge counted, went through at 11 events, and the bridge came back
 * as a correction (a review). Only a session the batch fills takes its millisecond; the result no longer depends on
 * how the events are split across deliveries (rule 8).
 */
class SessionBridgeTiedMillisecondTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private List<Integer> run(boolean together) throws Exception {
        TestClock clock = new TestClock(T0.plusSeconds(3600));
        InMemoryWindowStore store = new InMemoryWindowStore(4);
        RecordingEmitter emitter = new RecordingEmitter();
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 10m}", "2h",
                "{outOfOrderness: 1h, idleAfter: 3h}", "    bounds: {maxEventsPerWindow: 7, onOverflow: split}\n"
                        + "    aggregations: [{name: ids, type: distinct-ids}]\n"), store, emitter, new RecordingTimers(), clock);
        IngestService ingest = new IngestService(engine);
        int[] seq = {0};
        java.util.function.BiFunction<String, Long, InboundMessage> message = (id, seconds) ->
                InMemoryEngines.message("m" + seq[0]++, InMemoryEngines.rawEvent("k", id, T0.plusSeconds(seconds)), clock.instant(), 1);
        List<InboundMessage> a = new ArrayList<>();
        List<InboundMessage> b = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            a.add(message.apply("a" + i, (long) i));          // session A: 0..4 s
            b.add(message.apply("b" + i, 1200L + i));         // session B: 20 min later, last at 1204 s
        }
        assertThat(ingest.handle(a).failedMessageIds()).isEmpty();
        assertThat(ingest.handle(b).failedMessageIds()).isEmpty();
        InboundMessage bridge = message.apply("bridge", 602L);   // inside A's gap, reaching B
        InboundMessage tied = message.apply("x", 1204L);         // a new event in B's last second
        if (together) {
            assertThat(ingest.handle(List.of(bridge, tied)).failedMessageIds()).isEmpty();
        } else {
            assertThat(ingest.handle(List.of(tied)).failedMessageIds()).isEmpty();
            assertThat(ingest.handle(List.of(bridge)).failedMessageIds()).isEmpty();
        }
        SweepService sweep = new SweepService(engine);
        for (int i = 0; i < 360; i++) {
            clock.advance(Duration.ofSeconds(30));
            sweep.sweep(clock.instant().plusSeconds(50));
        }
        List<Integer> counts = new ArrayList<>();
        for (var e : emitter.emitted()) {
            JsonNode agg = JSON.readTree(e.detailJson());
            counts.add(agg.path("aggregations").path("ids").path("count").asInt());
        }
        return counts;
    }

    @Test
    void aMergeOverTheBoundIsNotMadeByAnEventTiedWithTheLaterSessionsLastMillisecond() throws Exception {
        List<Integer> oneByOne = run(false);
        List<Integer> together = run(true);
        assertThat(oneByOne).as("one at a time: A cut at 5, B + x + bridge = 7").containsExactly(5, 7);
        assertThat(together).as("no revision holds more than maxEventsPerWindow=7").allMatch(n -> n <= 7);
        assertThat(together).as("rule 8: the same sessions whatever the split across deliveries").isEqualTo(oneByOne);
    }
}
