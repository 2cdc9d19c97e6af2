package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A live session past its hard deadline that its timer or a sweep has not cut yet is planned as cut there (session
 * rule 7): a review found an on-time event after it sent to the side output as too late ("window became final"), and a
 * bridge merging it giving a neighbour's events its passed deadline (three of five events lost).
 */
class OverdueSessionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private int seq;

    @Test
    void anOnTimeEventAfterTheDeadlineContinuesTheSessionItsTimerHasNotCutYet() throws Exception {
        FaninEngine engine = engine("{type: session, gap: 2m}", "15m", "{outOfOrderness: 10s, idleAfter: 5m}", "");
        IngestService ingest = new IngestService(engine);
        for (int i = 0; i <= 16; i++) {  // one event a minute, each 1 s after its time; no timer, no sweep
            Instant at = T0.plusSeconds(60L * i);
            clock.set(at.plusSeconds(1));
            assertThat(ingest.handle(List.of(message("e" + i, at))).failedMessageIds()).isEmpty();
        }
        sweepFor(engine, Duration.ofMinutes(10));

        assertThat(((RecordingSideOutput) engine.ports().sideOutput()).sideRecords()).as("no on-time event too late").isEmpty();
        List<JsonNode> aggregates = aggregates();
        assertThat(aggregates).extracting(a -> a.path("aggregations").path("n").asInt()).containsExactly(15, 2);
        assertThat(aggregates.get(0).path("closeReason").asText()).isEqualTo("HARD_LIFETIME");
        assertThat(aggregates.get(1).path("continues").asText()).isEqualTo(aggregates.get(0).path("aggregateId").asText());
    }

    @Test
    void aBridgeToASessionPastItsDeadlineDoesNotGiveItsNeighbourThatDeadline() throws Exception {
        FaninEngine engine = engine("{type: session, gap: 10m}", "31m", "{outOfOrderness: 20m, idleAfter: 3h}", "");
        IngestService ingest = new IngestService(engine);
        clock.set(T0.plus(Duration.ofHours(1)));
        ingest.handle(List.of(message("a0", T0)));  // session A, its hard deadline 31 min from now
        clock.advance(Duration.ofMinutes(28));
        ingest.handle(List.of(message("b0", T0.plusSeconds(1500))));  // session B, opened 28 min later
        clock.advance(Duration.ofMinutes(4));  // A is past its deadline; no timer or sweep has cut it

        BatchResult result = ingest.handle(List.of(message("b1", T0.plusSeconds(1510)), message("bridge", T0.plusSeconds(540)),
                message("bridge2", T0.plusSeconds(1000))));
        sweepFor(engine, Duration.ofHours(2));

        assertThat(result.failedMessageIds()).isEmpty();
        assertThat(((RecordingSideOutput) engine.ports().sideOutput()).sideRecords()).as("none too late").isEmpty();
        // A is cut just after a0; the bridges fall after the cut and reach B, which takes them with its own deadline.
        List<JsonNode> aggregates = aggregates();
        assertThat(aggregates).extracting(a -> a.path("aggregations").path("n").asInt()).as("every event counted once")
                .containsExactly(1, 4);
        assertThat(aggregates.get(1).path("window").path("start").asText()).as("from the first bridge")
                .isEqualTo(T0.plusSeconds(540).toString().replace("Z", ".000Z"));
    }

    /**
     * The claim agrees with the plan: a session claimed past its deadline is cut after its last event whatever trigger
     * won (here its gap had ended too, and SESSION_GAP precedes HARD_LIFETIME), so it never overlaps the session the
     * plan opened to continue it (a review: it kept its gap's end, and a redelivered e15 was counted in both).
     */
    @Test
    void aSessionClaimedPastItsDeadlineByItsGapIsCutWhereThePlanAssumed() throws Exception {
        FaninEngine engine = engine("{type: session, gap: 2m}", "15m", "{outOfOrderness: 10s, idleAfter: 5m}", "    allowedLateness: 1h\n");
        IngestService ingest = new IngestService(engine);
        for (int i = 0; i <= 14; i++) {
            Instant at = T0.plusSeconds(60L * i);
            clock.set(at.plusSeconds(1));
            ingest.handle(List.of(message("e" + i, at)));
        }
        clock.set(T0.plusSeconds(15 * 60 + 5));  // past A's deadline, unclaimed; e17 takes the watermark past A's gap
        ingest.handle(List.of(message("e15", T0.plusSeconds(900)), message("e17", T0.plusSeconds(990))));
        clock.advance(Duration.ofSeconds(20));
        new SweepService(engine).sweep(clock.instant().plusSeconds(50));
        clock.advance(Duration.ofSeconds(20));
        BatchResult again = ingest.handle(List.of(message("e15", T0.plusSeconds(900))));
        sweepFor(engine, Duration.ofMinutes(90));

        assertThat(again.duplicates()).as("e15 redelivered is a duplicate").isEqualTo(1);
        List<JsonNode> aggregates = aggregates();
        assertThat(aggregates).extracting(a -> a.path("aggregations").path("n").asInt()).containsExactly(15, 2);
        assertThat(aggregates.get(0).path("window").path("end").asText()).as("cut after e14").endsWith("10:14:00.001Z");
        assertThat(aggregates.get(1).path("continues").asText()).isEqualTo(aggregates.get(0).path("aggregateId").asText());
    }

    private FaninEngine engine(String window, String lifetime, String watermark, String more) {
        return InMemoryEngines.of(InMemoryEngines.rawPipeline(window, lifetime, watermark,
                more + "    aggregations: [{name: n, type: count}]\n"), store, emitter, new RecordingTimers(), clock);
    }

    private InboundMessage message(String id, Instant eventTime) {
        return InMemoryEngines.message("m" + seq++, InMemoryEngines.rawEvent("k", id, eventTime), clock.instant(), 1);
    }

    private void sweepFor(FaninEngine engine, Duration d) {
        SweepService sweep = new SweepService(engine);
        Instant until = clock.instant().plus(d);
        while (clock.instant().isBefore(until)) {
            clock.advance(Duration.ofSeconds(30));
            sweep.sweep(clock.instant().plusSeconds(50));
        }
    }

    private List<JsonNode> aggregates() throws Exception {
        List<JsonNode> all = new ArrayList<>();
        for (var e : emitter.emitted()) {
            all.add(JSON.readTree(e.detailJson()));
        }
        all.sort((a, b) -> a.path("window").path("start").asText().compareTo(b.path("window").path("start").asText()));
        return all;
    }
}
