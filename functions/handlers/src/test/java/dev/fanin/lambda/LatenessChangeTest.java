package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.text.IsoMillis;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * {@code allowedLateness} changed after a window fired, through the real functions on the local endpoint. The rule
 * (docs/CONFIGURATION.md, "Changing the configuration with open windows"): the lateness in force when a late event is
 * processed decides, for a window opened before the change as for any other, both in event time (the watermark
 * against window end + lateness) and in processing time (nothing is accepted from hard deadline + lateness on). Every
 * window still closes, and each revision is committed and emitted once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LatenessChangeTest {

    /** Window [W, W+1m) of key k; out-of-orderness 0s and no idle advance within a test, so "pusher" events set the watermark. */
    private static final Instant W = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant END = W.plusSeconds(60);
    private static final String RUNS = """
            version: 1
            pipelines:
              - name: runs
                key: [$.k]
                eventId: $.id
                eventTime: {path: $.t, fallback: reject}
                window: {type: tumbling, size: 1m}
                watermark: {outOfOrderness: 0s, idleAfter: 1h}
                triggers: {maxLifetime: 2h}
                allowedLateness: %s
                late: {correctionDelay: 0s}
            """;
    private static final String RUN = "nightly-etl|2026-11-29";
    private static final AtomicInteger MESSAGES = new AtomicInteger();

    private PublishedConfig published;

    @BeforeAll
    void bucket() {
        published = PublishedConfig.bucket("lateness");
    }

    /**
     * 1m becomes 10m after the window fired: at the same watermark (end + 3m), an event too late before the change is a
     * correction after it; at end + 10m an event is too late again, by the new lateness.
     */
    @Test
    void aLongerLatenessMakesCorrectionsOfEventsThatWereTooLateBeforeTheChange() {
        LocalFanin fanin = firedWindow("longer", "1m");
        watermarkTo(fanin, END.plus(Duration.ofMinutes(3)));
        assertThat(fanin.ingest(batch(fanin, event("k", "before", W.plusSeconds(30))))).isEmpty();

        publish(fanin, "longer", "10m");
        assertThat(fanin.ingest(batch(fanin, event("k", "after", W.plusSeconds(31))))).isEmpty();
        watermarkTo(fanin, END.plus(Duration.ofMinutes(10)));
        assertThat(fanin.ingest(batch(fanin, event("k", "beyond", W.plusSeconds(32))))).isEmpty();

        List<JsonNode> revisions = ofKey(closeEverything(fanin, 5, "runs", "k", "pusher"), "k");
        assertThat(revisions).extracting(r -> r.path("aggregations").path("count").asInt()).containsExactly(2, 3);
        assertThat(revisions.get(1).path("closeReason").asText()).isEqualTo("LATE_CORRECTION");
        assertThat(revisions.get(1).path("corrects").asText()).isEqualTo(revisions.get(0).path("aggregateId").asText());
        Map<String, String> tooLate = tooLateByEventId(fanin, 2);
        assertThat(tooLate).containsOnlyKeys("before", "beyond");
        assertThat(tooLate.get("before")).as("judged by the lateness then in force").contains("allowed lateness PT1M");
        assertThat(tooLate.get("beyond")).contains("allowed lateness PT10M");
    }

    /**
     * 10m becomes 1m after the window fired and was corrected once: at end + 3m, inside the old lateness, an event is
     * too late after the change, and the window fires nothing more.
     */
    @Test
    void aShorterLatenessSendsEventsItNoLongerCoversToTheSideOutput() {
        LocalFanin fanin = firedWindow("shorter", "10m");
        watermarkTo(fanin, END.plus(Duration.ofMinutes(3)));
        assertThat(fanin.ingest(batch(fanin, event("k", "before", W.plusSeconds(30))))).isEmpty();

        publish(fanin, "shorter", "1m");
        assertThat(fanin.ingest(batch(fanin, event("k", "after", W.plusSeconds(31))))).isEmpty();

        List<JsonNode> revisions = ofKey(closeEverything(fanin, 4, "runs", "k", "pusher"), "k");
        assertThat(revisions).extracting(r -> r.path("aggregations").path("count").asInt()).containsExactly(2, 3);
        Map<String, String> tooLate = tooLateByEventId(fanin, 1);
        assertThat(tooLate).containsOnlyKeys("after");
        assertThat(tooLate.get("after")).contains("allowed lateness PT1M");
    }

    /**
     * The bundled shard-completions ({@code allowedLateness} 0s) fires a run partial at its 30-minute deadline, and then
     * accepts nothing more. Raised to 1h, the lateness lets a shard arriving after the deadline correct the rollup,
     * until deadline + 1h; a shard already sent to the side output stays there.
     */
    @Test
    void aLongerLatenessLetsAPartialRollupBeCorrectedAfterItsHardDeadline() {
        SQSEvent shards = SampleEvents.sqs("sqs-raw-shards.json");
        LocalFanin fanin = published.start("rollup", "rollup.yaml", PublishedConfig.BUNDLED, SampleEvents.lastSent(shards).plusSeconds(1));
        assertThat(fanin.ingest(SampleEvents.records(shards, 0, 1))).isEmpty();
        Instant deadline = only(fanin.windows("shard-completions", RUN)).hardDeadline();
        fanin.clock.set(deadline);
        fanin.sweep();
        fanin.clock.advance(Duration.ofMinutes(5));
        assertThat(fanin.ingest(SampleEvents.records(shards, 2))).as("shard 2, after the deadline").isEmpty();

        published.publish("rollup.yaml", PublishedConfig.BUNDLED.replace("      maxLifetime: 30m\n", "      maxLifetime: 30m\n    allowedLateness: 1h\n"));
        fanin.clock.advance(LiveConfig.REFRESH);
        assertThat(fanin.ingest(SampleEvents.records(shards, 4))).as("shard 3").isEmpty();
        fanin.clock.set(deadline.plus(Duration.ofHours(1)));
        assertThat(fanin.ingest(SampleEvents.records(shards, 3))).as("shard 2 sent again, at deadline + 1h").isEmpty();

        List<JsonNode> revisions = closeEverything(fanin, 2, "shard-completions", RUN);
        assertThat(revisions).extracting(r -> r.path("closeReason").asText()).containsExactly("HARD_LIFETIME", "LATE_CORRECTION");
        assertThat(revisions).extracting(r -> r.path("missing").toString()).containsExactly("[2,3]", "[2]");
        assertThat(revisions.get(1).path("corrects").asText()).isEqualTo(revisions.get(0).path("aggregateId").asText());
        Map<String, String> tooLate = new HashMap<>();
        for (Message m : fanin.receive(fanin.resources.queueUrl("LateEventsQueue"), 2, Duration.ofSeconds(5), Duration.ofSeconds(1))) {
            JsonNode record = LocalFanin.json(m.body());
            tooLate.put(record.path("sourceMessageId").asText(), record.path("reason").asText());
        }
        assertThat(tooLate).hasSize(2);
        assertThat(tooLate.get(shards.getRecords().get(2).getMessageId())).startsWith("TOO_LATE").contains("allowed lateness PT0S");
        // Shard 2's first verdict stands, whatever the lateness since: never counted after it went to the side output.
        assertThat(tooLate.get(shards.getRecords().get(3).getMessageId())).isEqualTo("TOO_LATE: a copy of the event delivered earlier was too late");
    }

    /** A fanin whose window [W, W+1m) of key k holds two events and has fired revision 0 by the watermark. */
    private LocalFanin firedWindow(String name, String lateness) {
        LocalFanin fanin = published.start(name, name + ".yaml", RUNS.formatted(lateness), END.plusSeconds(5));
        assertThat(fanin.ingest(batch(fanin, event("k", "e1", W.plusSeconds(1)), event("k", "e2", W.plusSeconds(2))))).isEmpty();
        fanin.clock.set(only(fanin.windows("runs", "k")).dueAt());
        watermarkTo(fanin, END);
        fanin.sweep();
        assertThat(only(fanin.windows("runs", "k")).status()).isEqualTo(WindowStatus.CLOSED);
        // Late enough that the pushers' event times (up to end + 10m) are not in the future; the idle advance waits 1h.
        fanin.clock.set(END.plus(Duration.ofMinutes(15)));
        return fanin;
    }

    /** Publishes the new lateness and lets a minute pass, so that the functions read it. */
    private void publish(LocalFanin fanin, String name, String lateness) {
        published.publish(name + ".yaml", RUNS.formatted(lateness));
        fanin.clock.advance(LiveConfig.REFRESH);
    }

    /** Moves the pipeline's watermark to {@code to} with an event of another key (out-of-orderness is 0s). */
    private static void watermarkTo(LocalFanin fanin, Instant to) {
        assertThat(fanin.ingest(batch(fanin, event("pusher", "p" + to.toEpochMilli(), to)))).isEmpty();
        assertThat(fanin.runtime.engine().ports().watermarks().read("runs").maxEventTime()).isEqualTo(to);
    }

    /**
     * Sweeps past every hard deadline and returns what reached the bus, by revision: every window of the keys closed,
     * each of its committed revisions on the bus once, and nothing else (every aggregate schema-valid).
     */
    private static List<JsonNode> closeEverything(LocalFanin fanin, int expected, String pipeline, String... keys) {
        fanin.clock.advance(Duration.ofHours(3));
        fanin.sweep();
        List<JsonNode> aggregates = fanin.aggregates(expected, Duration.ofSeconds(10), Duration.ofSeconds(2));
        assertThat(aggregates).extracting(a -> a.path("aggregateId").asText()).doesNotHaveDuplicates().hasSize(expected);
        for (String key : keys) {
            for (WindowState w : fanin.windows(pipeline, key)) {
                assertThat(w.status()).as(w.ref().toString()).isEqualTo(WindowStatus.CLOSED);
                String start = IsoMillis.format(w.bounds().startMillis());
                assertThat(aggregates).as("every committed revision of " + w.ref() + " on the bus once")
                        .filteredOn(a -> a.path("key").asText().equals(key) && a.path("window").path("start").asText().equals(start))
                        .hasSize(w.committedRevision() + 1);
            }
        }
        return aggregates.stream().sorted(Comparator.comparingInt(a -> a.path("revision").asInt())).toList();
    }

    /** The late side output's records ({@code expected} of them, one per event): their reasons by event id. */
    private static Map<String, String> tooLateByEventId(LocalFanin fanin, int expected) {
        Map<String, String> reasons = new HashMap<>();
        for (Message m : fanin.receive(fanin.resources.queueUrl("LateEventsQueue"), expected, Duration.ofSeconds(5), Duration.ofSeconds(1))) {
            JsonNode record = LocalFanin.json(m.body());
            assertThat(record.path("reasonCode").asText()).isEqualTo("TOO_LATE");
            assertThat(reasons.put(record.path("eventId").asText(), record.path("reason").asText())).as("once each").isNull();
        }
        return reasons;
    }

    private static List<JsonNode> ofKey(List<JsonNode> aggregates, String key) {
        return aggregates.stream().filter(a -> a.path("key").asText().equals(key)).toList();
    }

    private static WindowState only(List<WindowState> windows) {
        assertThat(windows).hasSize(1);
        return windows.get(0);
    }

    private static String event(String key, String id, Instant t) {
        return "{\"k\":\"" + key + "\",\"id\":\"" + id + "\",\"t\":\"" + t + "\"}";
    }

    /** One SQS batch of these bodies, sent now (by the fanin's clock), first delivery. */
    private static SQSEvent batch(LocalFanin fanin, String... bodies) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (String body : bodies) {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId("lateness-" + MESSAGES.incrementAndGet());
            m.setBody(body);
            m.setAttributes(Map.of("SentTimestamp", Long.toString(fanin.clock.instant().toEpochMilli()), "ApproximateReceiveCount", "1"));
            m.setEventSource("aws:sqs");
            records.add(m);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        return event;
    }
}
