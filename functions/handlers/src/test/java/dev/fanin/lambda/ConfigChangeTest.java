package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.fanin.aws.sqs.TimerMessage;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A configuration published while windows are open, through the real handlers on the local endpoint: every window
 * closes, under the rules of docs/CONFIGURATION.md ("Changing the configuration with open windows"), and fires once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConfigChangeTest {

    private static final String BUNDLED = PublishedConfig.BUNDLED;
    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(SchemaLocation.of("classpath:schemas/aggregate-v1.json"));
    private static final Duration REFRESH = Duration.ofMinutes(1);
    private static final String UPLOADS_KEY = "acme-ingest|uploads/batch-7";
    private static final String ALERTS_KEY = "111122223333|eu-west-1|payments-api";

    private PublishedConfig published;

    @BeforeAll
    void bucket() {
        published = PublishedConfig.bucket("change");
    }

    /**
     * alert-storm is renamed and file-uploads removed while each has a window open: the renamed pipeline's timer still
     * closes its session under the old definition (not acknowledged as malformed), and the held upload batch still
     * fires flagged at its hard deadline, as the removed definition said. One aggregate each, and each says which
     * change cut its pipeline off ({@code retired}).
     */
    @Test
    void aRemovedOrRenamedPipelineStillClosesEveryOpenWindowUnderItsLastDefinition() {
        SQSEvent alerts = SampleEvents.sqs("sqs-eventbridge-alerts.json");
        SQSEvent timer = SampleEvents.sqs("sqs-timer.json");
        TimerMessage sample = TimerMessage.parse(timer.getRecords().get(0).getBody());
        LocalFanin fanin = start("retire", "retire.yaml", SampleEvents.lastSent(alerts).plusSeconds(1));
        Instant opened = fanin.clock.instant();
        assertThat(fanin.ingest(alerts)).isEmpty();
        assertThat(fanin.ingest(uploadsWithoutManifest())).isEmpty();

        put("retire.yaml", BUNDLED.replace("  - name: alert-storm\n", "  - name: alert-storm-eb\n").replace(section("file-uploads"), ""));
        fanin.clock.set(later(sample.wakeup().dueAt().plusSeconds(1), opened.plus(REFRESH)));
        StdoutCapture.Captured<List<String>> fired = StdoutCapture.run(() -> new TimerFunction(fanin.runtime)
                .handleRequest(timer, TestContexts.invocation("retire-timer")).getBatchItemFailures().stream()
                .map(f -> f.getItemIdentifier()).toList());

        assertThat(fired.result()).isEmpty();
        assertThat(EmfRecords.values(fired.lines(), FunctionMetricNames.MALFORMED_TIMERS)).isEmpty();
        assertThat(names(fanin.runtime.engine().config().pipelines())).containsExactly("alert-storm-eb", "alert-storm-sns",
                "shard-completions");
        assertThat(names(fanin.runtime.engine().retired())).containsExactly("alert-storm", "file-uploads");
        assertThat(fanin.windows("alert-storm", ALERTS_KEY)).singleElement()
                .satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));

        for (Duration at : List.of(Duration.ofMinutes(12), Duration.ofHours(1), Duration.ofHours(2).plusMinutes(2))) {
            fanin.clock.set(opened.plus(at));
            fanin.sweep();
        }

        assertThat(fanin.windows("file-uploads", UPLOADS_KEY)).singleElement()
                .satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
        List<JsonNode> aggregates = fanin.aggregates(3, Duration.ofSeconds(10), Duration.ofSeconds(2));
        assertThat(aggregates).extracting(a -> a.path("pipeline").asText()).containsExactlyInAnyOrder("alert-storm", "file-uploads");
        JsonNode alert = byPipeline(aggregates, "alert-storm");
        assertThat(alert.path("closeReason").asText()).isEqualTo("SESSION_GAP");
        assertThat(alert.path("aggregations").path("alerts").asInt()).isEqualTo(3);
        JsonNode upload = byPipeline(aggregates, "file-uploads");
        assertThat(upload.path("closeReason").asText()).isEqualTo("HARD_LIFETIME");
        assertThat(upload.path("complete").asBoolean()).as("fired flagged, as the removed definition said").isFalse();
        assertThat(upload.path("aggregations").path("files").asInt()).isEqualTo(2);
        assertThat(alert.path("retired").toString()).isEqualTo("{\"change\":\"renamed\",\"renamedTo\":\"alert-storm-eb\"}");
        assertThat(upload.path("retired").toString()).isEqualTo("{\"change\":\"removed\",\"renamedTo\":null}");
        aggregates.forEach(a -> assertThat(SCHEMA.validate(a)).as(a.toString()).isEmpty());
    }

    /**
     * file-uploads gets a longer gap, a shorter maxLifetime and one more aggregation while a batch is open; the batch
     * completes after the change. Rules: bounds, kind and hard deadline are the window's own (fixed when it opened);
     * the rest is the configuration in force at each decision; an added aggregation covers the events from the change.
     */
    @Test
    void aChangedPipelineClosesAWindowOpenedBeforeTheChangeByTheDocumentedRules() {
        SQSEvent uploads = SampleEvents.sqs("sqs-s3-uploads.json");
        LocalFanin fanin = start("change", "change.yaml", SampleEvents.lastSent(uploads).plusSeconds(1));
        assertThat(fanin.ingest(uploadsWithoutManifest())).isEmpty();
        WindowState before = fanin.windows("file-uploads", UPLOADS_KEY).get(0);

        put("change.yaml", BUNDLED.replace("      gap: 10m\n", "      gap: 20m\n").replace("      maxLifetime: 2h\n", "      maxLifetime: 1h\n")
                .replace("      - {name: bytes, type: sum, path: $.s3.object.size}\n",
                        "      - {name: bytes, type: sum, path: $.s3.object.size}\n      - {name: largest, type: max, path: $.s3.object.size}\n"));
        fanin.clock.advance(REFRESH);
        assertThat(fanin.ingest(rest(uploads))).isEmpty();

        List<JsonNode> aggregates = fanin.aggregates(2, Duration.ofSeconds(10), Duration.ofSeconds(2));
        assertThat(aggregates).singleElement().satisfies(a -> {
            assertThat(a.path("closeReason").asText()).isEqualTo("EXPECTED_COMPLETE");
            assertThat(a.path("complete").asBoolean()).isTrue();
            assertThat(a.has("retired")).as("a changed pipeline is not retired").isFalse();
            assertThat(a.path("aggregations").path("files").asInt()).as("counted across the change").isEqualTo(3);
            assertThat(a.path("aggregations").path("largest").path("value").asLong()).as("the added aggregation: part-003 only")
                    .isEqualTo(sizeOfPart3());
        });
        WindowState after = fanin.windows("file-uploads", UPLOADS_KEY).get(0);
        assertThat(after.hardDeadline()).as("the window's own deadline").isEqualTo(before.hardDeadline());
        assertThat(after.status()).isEqualTo(WindowStatus.CLOSED);
    }

    /**
     * shard-completions' tumbling day becomes an hour while a run's window holds two of its four shards: the other two
     * go to a new window of the new size, and each window closes once, at its own deadline, fired partial naming what
     * it misses. Every shard is in exactly one aggregate; the duplicate of shard 2 in neither twice.
     */
    @Test
    void aNewWindowSizeSendsNewEventsToNewWindowsAndTheOpenOneStillClosesOnce() {
        SQSEvent shards = SampleEvents.sqs("sqs-raw-shards.json");
        LocalFanin fanin = start("resize", "resize.yaml", SampleEvents.lastSent(shards).plusSeconds(1));
        Instant opened = fanin.clock.instant();
        assertThat(fanin.ingest(records(shards, 0, 2))).isEmpty();

        put("resize.yaml", BUNDLED.replace("      size: 1d\n", "      size: 1h\n"));
        fanin.clock.advance(REFRESH);
        assertThat(fanin.ingest(records(shards, 2, 5))).isEmpty();
        for (Duration at : List.of(Duration.ofMinutes(32), Duration.ofMinutes(40))) {
            fanin.clock.set(opened.plus(at));
            fanin.sweep();
        }

        List<JsonNode> aggregates = fanin.aggregates(3, Duration.ofSeconds(10), Duration.ofSeconds(2));
        assertThat(aggregates).hasSize(2).allSatisfy(a -> {
            assertThat(a.path("closeReason").asText()).isEqualTo("HARD_LIFETIME");
            assertThat(a.path("complete").asBoolean()).isFalse();
            assertThat(SCHEMA.validate(a)).as(a.toString()).isEmpty();
        });
        JsonNode day = byStart(aggregates, "2026-11-29T00:00:00.000Z");
        JsonNode hour = byStart(aggregates, "2026-11-29T02:00:00.000Z");
        assertThat(day.path("window").path("end").asText()).as("the window opened before keeps its bounds").isEqualTo("2026-11-30T00:00:00.000Z");
        assertThat(day.path("missing").toString()).isEqualTo("[2,3]");
        assertThat(hour.path("window").path("end").asText()).isEqualTo("2026-11-29T03:00:00.000Z");
        assertThat(hour.path("missing").toString()).isEqualTo("[0,1]");
        assertThat(day.path("seen").asInt() + hour.path("seen").asInt()).as("each shard once").isEqualTo(4);
    }

    /**
     * A count threshold is added (3) while a run's window holds two shards: it applies to the open window at its next
     * decision, so the third shard closes it by COUNT, incomplete and naming the one missing, once.
     */
    @Test
    void aLowerCountThresholdClosesAnOpenWindowAtItsNextDecision() {
        SQSEvent shards = SampleEvents.sqs("sqs-raw-shards.json");
        LocalFanin fanin = start("count", "count.yaml", SampleEvents.lastSent(shards).plusSeconds(1));
        assertThat(fanin.ingest(records(shards, 0, 2))).isEmpty();

        put("count.yaml", BUNDLED.replace("      maxLifetime: 30m\n", "      count: 3\n      maxLifetime: 30m\n"));
        fanin.clock.advance(REFRESH);
        assertThat(fanin.ingest(records(shards, 2, 4))).isEmpty();

        List<JsonNode> aggregates = fanin.aggregates(2, Duration.ofSeconds(10), Duration.ofSeconds(2));
        assertThat(aggregates).singleElement().satisfies(a -> {
            assertThat(a.path("closeReason").asText()).isEqualTo("COUNT");
            assertThat(a.path("seen").asInt()).isEqualTo(3);
            assertThat(a.path("complete").asBoolean()).isFalse();
            assertThat(a.path("missing").toString()).isEqualTo("[3]");
        });
    }

    private LocalFanin start(String name, String key, Instant clock) {
        return published.start(name, key, BUNDLED, clock);
    }

    /** Records {@code from} (inclusive) to {@code to} (exclusive) of a sample event. */
    private static SQSEvent records(SQSEvent sample, int from, int to) {
        SQSEvent event = new SQSEvent();
        event.setRecords(sample.getRecords().subList(from, to));
        return event;
    }

    /** The sample uploads without the message that carries the manifest (and the third file). */
    private static SQSEvent uploadsWithoutManifest() {
        SQSEvent event = SampleEvents.sqs("sqs-s3-uploads.json");
        event.setRecords(List.of(event.getRecords().get(0)));
        return event;
    }

    private static SQSEvent rest(SQSEvent uploads) {
        SQSEvent event = new SQSEvent();
        event.setRecords(uploads.getRecords().subList(1, uploads.getRecords().size()));
        return event;
    }

    private static long sizeOfPart3() {
        JsonNode body = LocalFanin.json(SampleEvents.sqs("sqs-s3-uploads.json").getRecords().get(1).getBody());
        return body.path("Records").get(0).path("s3").path("object").path("size").asLong();
    }

    private static JsonNode byPipeline(List<JsonNode> aggregates, String pipeline) {
        return aggregates.stream().filter(a -> a.path("pipeline").asText().equals(pipeline)).findFirst().orElseThrow();
    }

    private static JsonNode byStart(List<JsonNode> aggregates, String start) {
        return aggregates.stream().filter(a -> a.path("window").path("start").asText().equals(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no aggregate of a window starting " + start + ": " + aggregates));
    }

    private static List<String> names(List<PipelineConfig> pipelines) {
        return pipelines.stream().map(PipelineConfig::name).toList();
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private void put(String key, String text) {
        published.publish(key, text);
    }

    /** The bundled document's section of one pipeline, comment included. */
    private static String section(String pipeline) {
        int start = BUNDLED.lastIndexOf("\n  #", BUNDLED.indexOf("  - name: " + pipeline + "\n")) + 1;
        int end = BUNDLED.indexOf("\n  #", BUNDLED.indexOf("  - name: " + pipeline + "\n")) + 1;
        return BUNDLED.substring(start, end);
    }
}
