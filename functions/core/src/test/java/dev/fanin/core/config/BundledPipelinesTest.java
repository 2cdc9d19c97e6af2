package dev.fanin.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The sample pipelines shipped in the jar load without a problem and have exactly the agreed shapes. */
class BundledPipelinesTest {

    private static final FaninConfig BUNDLED = ConfigLoader.loadBundled();
    private static final EmitTarget EMIT = new EmitTarget.EventBridge("${FANIN_EMIT_BUS_NAME}", "fanin", "fanin.aggregate");

    private static FieldPath path(String expression) {
        return FieldPath.parse(expression);
    }

    private static PipelineConfig pipeline(String name) {
        return BUNDLED.pipeline(name).orElseThrow();
    }

    @Test
    void theBundledFileDeclaresTheFourSamplesInMatchOrder() {
        assertThat(BUNDLED.version()).isEqualTo(1);
        assertThat(BUNDLED.pipelines()).extracting(PipelineConfig::name)
                .containsExactly("alert-storm", "alert-storm-sns", "file-uploads", "shard-completions");
    }

    @Test
    void alertStorm() {
        PipelineConfig p = pipeline("alert-storm");

        assertThat(p.envelope()).isEqualTo(Envelope.EVENTBRIDGE);
        assertThat(p.match().all()).containsExactly(new Condition(path("$envelope.source"), null, List.of("custom.alerts", "aws.cloudwatch"), null, null));
        assertThat(p.key()).containsExactly(ValueRef.of(path("$envelope.account")), ValueRef.of(path("$envelope.region")), ValueRef.of(path("$.service")));
        assertThat(p.eventId()).isEqualTo(path("$envelope.id"));
        assertThat(p.eventTime().path()).isEqualTo(path("$envelope.time"));
        assertAlertStormWindowing(p);
    }

    @Test
    void alertStormSns() {
        PipelineConfig p = pipeline("alert-storm-sns");

        assertThat(p.envelope()).isEqualTo(Envelope.SNS);
        assertThat(p.match().all()).containsExactly(new Condition(path("$.source"), "custom.alerts", null, null, null));
        assertThat(p.key()).containsExactly(ValueRef.of(path("$.account")), ValueRef.of(path("$.region")), ValueRef.of(path("$.service")));
        assertThat(p.eventId()).isEqualTo(path("$.alertId"));
        assertThat(p.eventTime().path()).isEqualTo(path("$.time"));
        assertAlertStormWindowing(p);
    }

    private static void assertAlertStormWindowing(PipelineConfig p) {
        assertThat(p.window()).isEqualTo(new WindowSpec.Session(Duration.ofSeconds(30)));
        assertThat(p.triggers()).isEqualTo(new TriggerSpec(null, null, null, Duration.ofMinutes(10)));
        assertThat(p.watermark()).isEqualTo(new WatermarkSpec(Duration.ofSeconds(10), Duration.ofSeconds(30)));
        assertThat(p.allowedLateness()).isEqualTo(Duration.ofMinutes(2));
        assertThat(p.incomplete().mode()).isEqualTo(IncompletePolicy.Mode.FIRE_PARTIAL);
        assertThat(p.knowsCompleteness()).isFalse();
        assertThat(p.aggregations()).containsExactly(
                new AggregationSpec.Count("alerts"),
                new AggregationSpec.DistinctValues("resources", path("$.resource"), 200),
                new AggregationSpec.LastN("samples", 5, null));
        assertThat(p.emit()).isEqualTo(EMIT);
    }

    @Test
    void fileUploads() {
        PipelineConfig p = pipeline("file-uploads");

        assertThat(p.envelope()).isEqualTo(Envelope.S3);
        assertThat(p.match().all()).containsExactly(new Condition(path("$.eventSource"), "aws:s3", null, null, null));
        assertThat(p.key()).hasSize(2);
        assertThat(p.key().get(0)).isEqualTo(ValueRef.of(path("$.s3.bucket.name")));
        assertThat(p.key().get(1).path()).isEqualTo(path("$.s3.object.key"));
        assertThat(p.key().get(1).extract().pattern()).isEqualTo("^(.*)/[^/]+$");
        assertThat(p.eventId()).isEqualTo(path("$.s3.object.key"));
        assertThat(p.eventTime().path()).isEqualTo(path("$.eventTime"));
        assertThat(p.window()).isEqualTo(new WindowSpec.Session(Duration.ofMinutes(10)));

        SentinelSpec sentinel = p.triggers().sentinel();
        assertThat(sentinel.when().path()).isEqualTo(path("$.s3.object.key"));
        assertThat(sentinel.when().matches().pattern()).isEqualTo(".*/_manifest-\\d+\\.json");
        assertThat(sentinel.expectedCount().path()).isEqualTo(path("$.s3.object.key"));
        assertThat(sentinel.expectedCount().extract().pattern()).isEqualTo("_manifest-(\\d+)\\.json$");
        assertThat(sentinel.countsAsEvent()).isFalse();
        assertThat(p.triggers().expected()).isNull();
        assertThat(p.triggers().maxLifetime()).isEqualTo(Duration.ofHours(2));

        assertThat(p.incomplete()).isEqualTo(new IncompletePolicy(IncompletePolicy.Mode.HOLD, IncompletePolicy.AtDeadline.FIRE_FLAGGED));
        assertThat(p.aggregations()).containsExactly(
                new AggregationSpec.Count("files"),
                new AggregationSpec.Sum("bytes", path("$.s3.object.size")),
                new AggregationSpec.DistinctValues("keys", path("$.s3.object.key"), 1000, 128));
        assertThat(p.emit()).isEqualTo(EMIT);
    }

    @Test
    void fileUploadsSentinelRegexesDoWhatTheSampleNeeds() {
        SentinelSpec sentinel = pipeline("file-uploads").triggers().sentinel();
        Pattern prefix = pipeline("file-uploads").key().get(1).extract();

        assertThat(sentinel.when().matches().matcher("batch-7/_manifest-12.json").matches()).isTrue();
        assertThat(sentinel.when().matches().matcher("batch-7/part-0001.csv").matches()).isFalse();
        var count = sentinel.expectedCount().extract().matcher("batch-7/_manifest-12.json");
        assertThat(count.find()).isTrue();
        assertThat(count.group(1)).isEqualTo("12");
        var upload = prefix.matcher("incoming/batch-7/part-0001.csv");
        assertThat(upload.find()).isTrue();
        assertThat(upload.group(1)).isEqualTo("incoming/batch-7");
    }

    @Test
    void shardCompletions() {
        PipelineConfig p = pipeline("shard-completions");

        assertThat(p.envelope()).isEqualTo(Envelope.RAW);
        assertThat(p.match().all()).containsExactly(new Condition(path("$.type"), "shard.done", null, null, null));
        assertThat(p.key()).containsExactly(ValueRef.of(path("$.jobId")), ValueRef.of(path("$.runId")));
        assertThat(p.eventId()).isEqualTo(path("$.shard"));
        assertThat(p.eventTime().path()).isEqualTo(path("$.finishedAt"));
        assertThat(p.window()).isEqualTo(new WindowSpec.Tumbling(Duration.ofDays(1), Duration.ZERO));
        assertThat(p.triggers()).isEqualTo(new TriggerSpec(null,
                new ExpectedSpec(null, path("$.shardCount"), path("$.shard"), 0), null, Duration.ofMinutes(30)));
        assertThat(p.incomplete().mode()).isEqualTo(IncompletePolicy.Mode.FIRE_PARTIAL);
        assertThat(p.aggregations()).containsExactly(
                new AggregationSpec.Count("shards"),
                new AggregationSpec.Sum("rows", path("$.rows")),
                new AggregationSpec.Max("slowestMs", path("$.durationMs")));
        assertThat(p.emit()).isEqualTo(EMIT);
    }
}
