package dev.fanin.core.config;

import static dev.fanin.core.config.ValidationCases.p;
import static dev.fanin.core.config.ValidationCases.valid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigLoaderTest {

    private static PipelineConfig only(String yaml) {
        return ConfigLoader.load(yaml, "test.yaml").pipelines().get(0);
    }

    private static List<String> problems(String yaml) {
        ConfigException rejected = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(yaml, "test.yaml"));
        assertThat(rejected).as("expected a ConfigException").isNotNull();
        return rejected.problems().stream().map(ConfigProblem::toString).toList();
    }

    /** YAML 1.1 read NO as false, on as true, 010 as 8, 0x1F as 31, 1_000 as 1000 and 1:30 as 90: never matched. */
    @Test
    void matchValuesAreComparedAsWrittenNotAsYaml11ReadsThem() {
        Condition countries = only(valid("match: [{path: $.country, oneOf: [SE, NO, DK, on, Off, y]}]")).match().all().get(0);
        assertThat(countries.oneOf()).containsExactly("SE", "NO", "DK", "on", "Off", "y");
        Condition codes = only(valid("match: [{path: $.code, oneOf: [010, 0x1F, 1_000, '1:30', 1:30, 0o7, 12, -3, true]}]")).match().all().get(0);
        assertThat(codes.oneOf()).containsExactly("010", "0x1F", "1_000", "1:30", "1:30", "0o7", "12", "-3", "true");
        assertThat(only(valid("match: [{path: $.state, equals: off}]")).match().all().get(0).equalTo()).isEqualTo("off");
    }

    /** A document an earlier fanin accepted and recorded loads as it did then: its windows close under it. */
    @Test
    void aRecordedDocumentLoadsByTheRulesThatAcceptedIt() {
        String recorded = valid("window: {type: tumbling, size: 1h}\nwatermark: {outOfOrderness: 5m}\n"
                + "match: [{path: $.country, oneOf: [SE, NO]}]").replace("maxLifetime: 15m", "maxLifetime: 61m");

        assertThat(problems(recorded)).singleElement().asString().contains("plus watermark.outOfOrderness");
        PipelineConfig then = ConfigLoader.loadRecorded(recorded, "history").pipelines().get(0);
        assertThat(then.triggers().maxLifetime()).isEqualTo(Duration.ofMinutes(61));
        assertThat(then.match().all().get(0).oneOf()).as("NO read as YAML 1.1 read it").containsExactly("SE", "false");
    }

    @Test
    void aNumberOrBooleanFieldWrittenAsYaml11WordsOrOctalSaysWhatItNeeds() {
        assertThat(problems(valid("bounds: {maxOpenWindows: 010}"))).containsExactly(
                "pipeline \"p\": bounds.maxOpenWindows must be a whole number, not \"010\"");
        assertThat(problems(p("name: p\nkey: [$.k]\ntriggers: {maxLifetime: 15m, sentinel: {when: {path: $.done, exists: yes}}}")))
                .containsExactly("pipeline \"p\": triggers.sentinel.when.exists must be true or false, not \"yes\"");
        assertThat(only(valid("bounds: {maxOpenWindows: 1000}")).bounds().maxOpenWindows()).isEqualTo(1000);
    }

    @Test
    void theMinimalPipelineGetsEveryDocumentedDefault() {
        PipelineConfig pipeline = only(valid(""));

        assertThat(pipeline.name()).isEqualTo("p");
        assertThat(pipeline.match().all()).isEmpty();
        assertThat(pipeline.envelope()).isEqualTo(Envelope.RAW);
        assertThat(pipeline.key()).containsExactly(ValueRef.of(FieldPath.parse("$.k")));
        assertThat(pipeline.eventId()).as("absent: the SQS message id").isNull();
        assertThat(pipeline.eventTime()).isEqualTo(new EventTimeSpec(null, EventTimeSpec.TimeFormat.AUTO,
                EventTimeSpec.TimeFallback.SQS_SENT_TIMESTAMP, Duration.ofMinutes(5), Duration.ofDays(7)));
        assertThat(pipeline.window()).isEqualTo(new WindowSpec.Tumbling(Duration.ofMinutes(1), Duration.ZERO));
        assertThat(pipeline.triggers()).isEqualTo(new TriggerSpec(null, null, null, Duration.ofMinutes(15)));
        assertThat(pipeline.watermark()).isEqualTo(new WatermarkSpec(Duration.ofSeconds(5), Duration.ofMinutes(1)));
        assertThat(pipeline.allowedLateness()).isEqualTo(Duration.ZERO);
        assertThat(pipeline.late()).isEqualTo(new LatePolicy(LatePolicy.TooLate.SIDE_OUTPUT, Duration.ofSeconds(10)));
        assertThat(pipeline.incomplete()).isEqualTo(new IncompletePolicy(IncompletePolicy.Mode.FIRE_PARTIAL, IncompletePolicy.AtDeadline.FIRE_FLAGGED));
        assertThat(pipeline.aggregations()).containsExactly(new AggregationSpec.Count("count"));
        assertThat(pipeline.bounds()).isEqualTo(new Bounds(10_000, 10_000, 512, 262_144, Bounds.Overflow.SPLIT));
        assertThat(pipeline.emit()).isEqualTo(new EmitTarget.EventBridge("${FANIN_EMIT_BUS_NAME}", "fanin", "fanin.aggregate"));
        assertThat(pipeline.retention()).isEqualTo(Duration.ofDays(7));
    }

    @ParameterizedTest(name = "envelope {0}: eventTime {1}, eventId {2}")
    @CsvSource(nullValues = "null", value = {
            "raw,         null,                 null",
            "eventbridge, $envelope.time,       null",
            "sns,         $envelope.Timestamp,  null",
            "s3,          $.eventTime,          $.s3.object.key"})
    void eventTimeAndEventIdDefaultToTheEnvelopesOwnFields(String envelope, String eventTime, String eventId) {
        PipelineConfig pipeline = only(valid("envelope: " + envelope));

        assertThat(pipeline.eventTime().path()).isEqualTo(eventTime == null ? null : FieldPath.parse(eventTime));
        assertThat(pipeline.eventId()).isEqualTo(eventId == null ? null : FieldPath.parse(eventId));
    }

    @Test
    void eventTimeMayBeGivenAsAPathAlone() {
        assertThat(only(valid("eventTime: $.at")).eventTime().path()).isEqualTo(FieldPath.parse("$.at"));
    }

    @Test
    void everyEventTimeFieldIsRead() {
        EventTimeSpec spec = only(valid("eventTime: {path: $.at, format: epoch-millis, fallback: reject, maxFuture: 1m, maxPast: 2d}")).eventTime();

        assertThat(spec).isEqualTo(new EventTimeSpec(FieldPath.parse("$.at"), EventTimeSpec.TimeFormat.EPOCH_MILLIS,
                EventTimeSpec.TimeFallback.REJECT, Duration.ofMinutes(1), Duration.ofDays(2)));
    }

    @Test
    void conditionsCompareScalarsByTheirTextAndKeepTheirTest() {
        MatchRule match = only(valid("match:\n  - {path: $.status, equals: 200}\n  - {path: $.kind, oneOf: [a, b]}\n"
                + "  - {path: $.key, matches: '.*\\.json'}\n  - {path: $envelope.id, exists: true}")).match();

        assertThat(match.all()).hasSize(4);
        assertThat(match.all().get(0).equalTo()).isEqualTo("200");
        assertThat(match.all().get(1).oneOf()).containsExactly("a", "b");
        assertThat(match.all().get(2).matches().pattern()).isEqualTo(".*\\.json");
        assertThat(match.all().get(3).exists()).isTrue();
        assertThat(match.all().get(3).path().root()).isEqualTo(FieldPath.Root.ENVELOPE);
    }

    @Test
    void keyPartsMayExtractWithARegex() {
        List<ValueRef> key = only(p("name: p\nkey: [$.bucket, {path: $.key, extract: '^(.*)/[^/]+$'}]\ntriggers: {maxLifetime: 15m}")).key();

        assertThat(key.get(0)).isEqualTo(ValueRef.of(FieldPath.parse("$.bucket")));
        assertThat(key.get(1).path()).isEqualTo(FieldPath.parse("$.key"));
        assertThat(key.get(1).extract().pattern()).isEqualTo("^(.*)/[^/]+$");
    }

    @Test
    void everyAggregationTypeIsRead() {
        List<AggregationSpec> aggregations = only(valid("aggregations:\n"
                + "  - {name: c, type: count}\n"
                + "  - {name: ids, type: distinct-ids, cap: 5}\n"
                + "  - {name: total, type: sum, path: $.n}\n"
                + "  - {name: low, type: min, path: $.n}\n"
                + "  - {name: high, type: max, path: $.n}\n"
                + "  - {name: firsts, type: first, n: 2, path: $.id}\n"
                + "  - {name: lasts, type: last}\n"
                + "  - {name: kinds, type: distinct-values, path: $.kind}")).aggregations();

        FieldPath n = FieldPath.parse("$.n");
        assertThat(aggregations).containsExactly(
                new AggregationSpec.Count("c"),
                new AggregationSpec.DistinctIds("ids", 5),
                new AggregationSpec.Sum("total", n),
                new AggregationSpec.Min("low", n),
                new AggregationSpec.Max("high", n),
                new AggregationSpec.FirstN("firsts", 2, FieldPath.parse("$.id")),
                new AggregationSpec.LastN("lasts", ConfigDefaults.SAMPLES, null),
                new AggregationSpec.DistinctValues("kinds", FieldPath.parse("$.kind"), ConfigDefaults.CAP));
    }

    @Test
    void anEmptyAggregationListEmitsCompletenessOnly() {
        assertThat(only(valid("aggregations: []")).aggregations()).isEmpty();
    }

    @Test
    void sqsTargetsInferFifoFromTheUrlAndKeepEnvironmentReferencesVerbatim() {
        assertThat(only(valid("emit: {sqs: {queueUrl: 'https://sqs.eu-west-1.amazonaws.com/1/out.fifo'}}")).emit())
                .isEqualTo(new EmitTarget.Sqs("https://sqs.eu-west-1.amazonaws.com/1/out.fifo", true));
        assertThat(only(valid("emit: {sqs: {queueUrl: '${OUT_QUEUE_URL}', fifo: true}}")).emit())
                .as("a reference cannot be checked for .fifo; the adapter resolves it")
                .isEqualTo(new EmitTarget.Sqs("${OUT_QUEUE_URL}", true));
        assertThat(only(valid("emit: {eventbridge: {bus: 'ops-${STAGE}'}}")).emit())
                .isEqualTo(new EmitTarget.EventBridge("ops-${STAGE}", "fanin", "fanin.aggregate"));
        assertThat(only(valid("emit:\n  eventbridge:")).emit()).isEqualTo(ConfigDefaults.EMIT);
    }

    @Test
    void holdDefaultsAtDeadlineToFireFlagged() {
        PipelineConfig pipeline = only(p("name: p\nkey: [$.k]\ntriggers: {expected: {count: 3}, maxLifetime: 15m}\nincomplete: {policy: hold}"));

        assertThat(pipeline.incomplete()).isEqualTo(new IncompletePolicy(IncompletePolicy.Mode.HOLD, IncompletePolicy.AtDeadline.FIRE_FLAGGED));
        assertThat(pipeline.knowsCompleteness()).isTrue();
    }

    // Boundaries: the last accepted value and the first rejected one.

    @Test
    void tumblingOffsetMayBeOneMillisecondShorterThanTheSize() {
        assertThat(only(valid("window: {type: tumbling, size: 1m, offset: 59999ms}")).window())
                .isEqualTo(new WindowSpec.Tumbling(Duration.ofMinutes(1), Duration.ofMillis(59_999)));
        assertThat(problems(valid("window: {type: tumbling, size: 1m, offset: 60000ms}"))).hasSize(1);
    }

    @Test
    void slidingWindowsMayPutAnEventInAtMostOneHundredWindows() {
        assertThat(only(valid("window: {type: sliding, size: 100s, slide: 1s}")).window())
                .isEqualTo(new WindowSpec.Sliding(Duration.ofSeconds(100), Duration.ofSeconds(1)));
        assertThat(only(valid("window: {type: sliding, size: 5m, slide: 5m}")).window())
                .as("slide equal to the size: tumbling in effect, allowed")
                .isEqualTo(new WindowSpec.Sliding(Duration.ofMinutes(5), Duration.ofMinutes(5)));
        assertThat(problems(valid("window: {type: sliding, size: 101s, slide: 1s}"))).hasSize(1);
    }

    @Test
    void maxLifetimeMustOutlastTheSessionGapAndTheOutOfOrdernessByAtLeastAMillisecond() {
        assertThat(only(p("name: p\nkey: [$.k]\nwindow: {type: session, gap: 30s}\ntriggers: {maxLifetime: 35001ms}")).triggers().maxLifetime())
                .isEqualTo(Duration.ofMillis(35_001));
        assertThat(problems(p("name: p\nkey: [$.k]\nwindow: {type: session, gap: 30s}\ntriggers: {maxLifetime: 35s}"))).hasSize(1);
        // The watermark passes a window's end only once an event outOfOrderness later has come.
        assertThat(problems(p("name: p\nkey: [$.k]\nwindow: {type: tumbling, size: 1m}\ntriggers: {maxLifetime: 61s}"))).hasSize(1);
        assertThat(only(p("name: p\nkey: [$.k]\nwindow: {type: tumbling, size: 1m}\ntriggers: {maxLifetime: 61s}\n"
                + "watermark: {outOfOrderness: 0s}")).triggers().maxLifetime()).isEqualTo(Duration.ofSeconds(61));
    }

    @Test
    void maxLifetimeMayBeShorterThanTheWindowWhenAnotherTriggerClosesItSooner() {
        assertThat(only(p("name: p\nkey: [$.k]\nwindow: {type: tumbling, size: 1h}\ntriggers: {count: 10, maxLifetime: 30m}")).triggers().count())
                .isEqualTo(10);
        assertThat(only(p("name: p\nkey: [$.k]\nwindow: {type: session, gap: 1h}\ntriggers: {sentinel: {when: {path: $.done, exists: true}}, maxLifetime: 30m}"))
                .triggers().sentinel().countsAsEvent()).isFalse();
    }

    @Test
    void aCountTriggerMayEqualTheEventsBound() {
        assertThat(only(p("name: p\nkey: [$.k]\ntriggers: {count: 100, maxLifetime: 15m}\nbounds: {maxEventsPerWindow: 100}")).triggers().count())
                .isEqualTo(100);
        assertThat(problems(p("name: p\nkey: [$.k]\ntriggers: {count: 101, maxLifetime: 15m}\nbounds: {maxEventsPerWindow: 100}"))).hasSize(1);
    }

    @Test
    void retentionMustOutlastAllowedLatenessByAtLeastAMillisecond() {
        assertThat(only(valid("allowedLateness: 1h\nretention: 3600001ms")).retention()).isEqualTo(Duration.ofMillis(3_600_001));
        assertThat(problems(valid("allowedLateness: 1h\nretention: 1h"))).hasSize(1);
    }

    @Test
    void aMatchEverythingPipelineIsFineWhenLast() {
        FaninConfig config = ConfigLoader.load(p("name: a\nmatch: [{path: $.a, exists: true}]\nkey: [$.k]\ntriggers: {maxLifetime: 15m}")
                + "  - {name: rest, key: [$.k], triggers: {maxLifetime: 15m}}\n", "test.yaml");

        assertThat(config.pipelines()).extracting(PipelineConfig::name).containsExactly("a", "rest");
        assertThat(config.pipeline("rest")).isPresent();
        assertThat(config.pipeline("nope")).isEmpty();
    }

    // Every problem at once.

    @Test
    void everyProblemIsReportedInOneRunInDocumentOrder() {
        String yaml = "version: 1\npipelines:\n"
                + "  - name: uploads\n"
                + "    match: [{path: $.a, exists: true}]\n"
                + "    key: [$.bucket]\n"
                + "    window: {type: session, gap: 5x}\n"
                + "    triggers: {maxLifetme: 2h}\n"
                + "  - name: shards\n"
                + "    key: [jobId]\n"
                + "    triggers: {maxLifetime: 30m}\n"
                + "    emit: {sqs: {queueUrl: q, fifo: true}}\n";

        assertThat(problems(yaml)).containsExactly(
                "pipeline \"uploads\": window.gap \"5x\" is not a duration; use e.g. \"30s\", \"5m\"",
                "pipeline \"uploads\": triggers.maxLifetme is not a known field; did you mean \"maxLifetime\"?",
                "pipeline \"uploads\": triggers.maxLifetime is missing; a window could stay open forever; set triggers.maxLifetime, e.g. \"15m\"",
                "pipeline \"shards\": key[0] \"jobId\" must start with \"$\" (payload) or \"$envelope\"; use e.g. \"$.detail.id\"",
                "pipeline \"shards\": emit.sqs.queueUrl \"q\" does not end in \".fifo\", but fifo is true; FIFO queue URLs end in \".fifo\"");
    }

    @Test
    void theExceptionMessageNamesTheOriginAndListsEveryProblem() {
        assertThatThrownBy(() -> ConfigLoader.load("version: 3\npipelines: []\n", "ops/pipelines.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("ops/pipelines.yaml: 2 problems" + System.lineSeparator()
                        + "  - version is 3; this fanin reads version 1 only, so write \"version: 1\"" + System.lineSeparator()
                        + "  - pipelines is empty; declare at least one pipeline")
                .extracting(e -> ((ConfigException) e).origin()).isEqualTo("ops/pipelines.yaml");
    }

    @Test
    void anUnreadableFileIsAConfigExceptionToo() {
        Path missing = Path.of("target", "no-such-dir", "pipelines.yaml");

        assertThatThrownBy(() -> ConfigLoader.load(missing))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(missing + ": 1 problem")
                .hasMessageContaining("the file cannot be read");
    }
}
