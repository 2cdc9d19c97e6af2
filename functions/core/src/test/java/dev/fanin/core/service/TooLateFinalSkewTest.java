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
 * A verdict of finality ("arrived after its window became final") is judged by the deciding worker's own clock, and
 * was kept only "by the window being final": nothing was written for it. Two workers whose clocks disagree by a
 * couple of seconds (Lambda containers, ±2 s in the simulation) straddling the window's final time then judge two
 * copies of one event apart: the fast one sends it to the side output, the slow one, which still finds the window
 * not final, counts it as a correction. The simulation found it (bounded, seed 2, shard-completions, half the sends
 * very late): one SQS message handed to two invocations at once, event 6 of job-3|run-105 too late on worker 1
 * (clock 01:02:29.997, final at 01:02:28.754) and counted in r1 LATE_CORRECTION on worker 0 (clock 01:02:27.113).
 */
class TooLateFinalSkewTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    /**
     * As the sample pipeline shard-completions: a day window closed by its expected members or at its 30-minute hard
     * deadline, no allowed lateness, so final at the hard deadline.
     */
    private static final String YAML = """
            version: 1
            pipelines:
              - name: p
                envelope: raw
                key: [$.k]
                eventId: $.id
                eventTime: {path: $.t}
                window: {type: tumbling, size: 1d}
                triggers:
                  expected: {countPath: $.n, memberPath: $.s, firstMember: 0}
                  maxLifetime: 30m
                watermark: {outOfOrderness: 10s, idleAfter: 5m}
                incomplete: {policy: fire-partial}
                aggregations: [{name: n, type: count}, {name: ids, type: distinct-ids}]
                emit: {sqs: {queueUrl: "https://sqs.us-east-1.amazonaws.com/1/out"}}
            """;

    private final TestClock fastClock = new TestClock(T0);
    private final TestClock slowClock = new TestClock(T0);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final FaninEngine fastEngine = InMemoryEngines.of(YAML, new InMemoryWindowStore(4), emitter, new RecordingTimers(), fastClock);
    private final IngestService fast = new IngestService(fastEngine);
    private final IngestService slow = new IngestService(InMemoryEngines.elsewhere(fastEngine, slowClock));

    /** The fast worker's verdict claims the window (its hard deadline passed); the slow one then finds it claimed. */
    @Test
    void aCopyDecidedByASlowerClockAfterAFinalVerdictIsTooLateAsWell() throws Exception {
        Instant finalAt = openWindowWithE0();
        fastClock.set(finalAt.plusSeconds(1));
        slowClock.set(finalAt.minusMillis(1_500));

        BatchResult first = deliver(fast, "m1", "e1", T0.plusSeconds(10), finalAt.minusSeconds(1), 1);
        assertThat(first.tooLate()).as("the fast worker finds the window final").isEqualTo(1);

        BatchResult second = deliver(slow, "m1", "e1", T0.plusSeconds(10), finalAt.minusSeconds(1), 1);

        assertThat(second.tooLate()).as("the same message, handed to a second worker, meets the verdict").isEqualTo(1);
        assertThat(second.eventsAccepted()).isZero();
        assertThat(countedIds()).as("e1 went to the side output: never counted").doesNotContain("e1");
    }

    /** As above, with the window committed (CLOSED) before either copy: the fast worker's verdict writes nothing. */
    @Test
    void aCopyDecidedByASlowerClockAfterAFinalVerdictOnAClosedWindowIsTooLateAsWell() throws Exception {
        Instant finalAt = openWindowWithE0();
        fastClock.set(finalAt.plusMillis(500));
        deliver(fast, "mx", "e9", T0.plusSeconds(12), fastClock.instant(), 1);  // too late; claims and flushes r0
        assertThat(emitter.emitted()).as("r0 emitted and committed").hasSize(1);
        fastClock.set(finalAt.plusSeconds(1));
        slowClock.set(finalAt.minusMillis(1_000));

        BatchResult first = deliver(fast, "m1", "e1", T0.plusSeconds(10), finalAt.minusSeconds(1), 1);
        assertThat(first.tooLate()).isEqualTo(1);

        BatchResult second = deliver(slow, "m1", "e1", T0.plusSeconds(10), finalAt.minusSeconds(1), 1);

        assertThat(second.tooLate()).as("the same message, handed to a second worker, meets the verdict").isEqualTo(1);
        assertThat(countedIds()).doesNotContain("e1");
    }

    /** e0 opens the day window of key a at T0 + 1 s; returns when it becomes final (its hard deadline). */
    private Instant openWindowWithE0() {
        fastClock.set(T0.plusSeconds(1));
        BatchResult r = deliver(fast, "m0", "e0", T0, T0.plusSeconds(1), 1);
        assertThat(r.eventsAccepted()).isEqualTo(1);
        return T0.plusSeconds(1).plus(Duration.ofMinutes(30));
    }

    private BatchResult deliver(IngestService ingest, String messageId, String eventId, Instant eventTime, Instant sent, int attempt) {
        String body = "{\"k\":\"a\",\"id\":\"" + eventId + "\",\"s\":" + eventId.substring(1) + ",\"n\":12,\"t\":" + eventTime.toEpochMilli() + "}";
        return ingest.handle(List.of(new InboundMessage(messageId, body, attempt, sent, sent, Map.of())));
    }

    /** The ids counted by any revision emitted for key a (every revision is cumulative). */
    private java.util.Set<String> countedIds() throws Exception {
        java.util.Set<String> ids = new java.util.TreeSet<>();
        for (var e : emitter.emitted()) {
            JsonNode aggregate = JSON.readTree(e.detailJson());
            if (aggregate.path("key").asText().equals("a")) {
                aggregate.path("aggregations").path("ids").path("ids").forEach(id -> ids.add(id.asText()));
            }
        }
        return ids;
    }
}
