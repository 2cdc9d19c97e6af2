package dev.fanin.core.emit;

import dev.fanin.testkit.AggregateSchema;
import static dev.fanin.core.trigger.EventFixture.event;
import static dev.fanin.core.trigger.PipelineFixture.path;
import static dev.fanin.core.trigger.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.aggregate.Aggregates;
import dev.fanin.core.config.AggregationSpec;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowKind;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AggregateEventTest {


    private static final PipelineConfig SHARDS = pipeline()
            .expected(new ExpectedSpec(4, null, path("$.shard"), 0))
            .aggregations(new AggregationSpec.Count("count"), new AggregationSpec.DistinctIds("ids", 10),
                    new AggregationSpec.Sum("rows", path("$.rows")), new AggregationSpec.LastN("last", 1, path("$.rows")),
                    new AggregationSpec.DistinctValues("hosts", path("$.host"), 5))
            .build();

    private static final WindowRef REF = new WindowRef("test-pipe", "job-7", WindowRef.timeWindowId(60_000));
    private static final Instant OPENED = Instant.parse("2024-05-01T12:00:00.123Z");
    private static final Instant CLOSED = Instant.parse("2024-05-01T12:01:05Z");

    private static AggregateEvent twoOfFourShards(int revision, String corrects, CloseReason reason) {
        Completeness completeness = Completeness.initial(SHARDS);
        Aggregates aggregates = Aggregates.empty(SHARDS.aggregations());
        for (Event e : List.of(event("s0", 61_000, "{\"shard\":0,\"rows\":10,\"host\":\"a\"}"),
                event("s2", 62_500, "{\"shard\":2,\"rows\":5,\"host\":\"b\"}"))) {
            completeness = completeness.observe(SHARDS, e);
            aggregates = aggregates.add(e);
        }
        return AggregateEvent.builder(REF, WindowKind.TUMBLING, new Interval(60_000, 120_000))
                .revision(revision).corrects(corrects).closeReason(reason)
                .completeness(completeness).aggregations(aggregates)
                .eventTimes(Instant.ofEpochMilli(61_000), Instant.ofEpochMilli(62_500))
                .openedAt(OPENED).closedAt(CLOSED)
                .build();
    }

    private static List<String> validate(ObjectNode json) {
        return AggregateSchema.problems(json);
    }

    @Test
    void partialFireCarriesWhatIsMissingAndValidates() {
        ObjectNode json = twoOfFourShards(0, null, CloseReason.HARD_LIFETIME).toJson(CLOSED.plusMillis(40));

        assertThat(validate(json)).isEmpty();
        assertThat(json.get("aggregateId").textValue()).isEqualTo("9:test-pipe/5:job-7/T000000000060000/r0");
        assertThat(json.get("complete").booleanValue()).isFalse();
        assertThat(json.get("expected").intValue()).isEqualTo(4);
        assertThat(json.get("seen").intValue()).isEqualTo(2);
        assertThat(json.get("missing").toString()).isEqualTo("[1,3]");
        assertThat(json.get("missingCount").intValue()).isEqualTo(2);
        assertThat(json.get("window").toString())
                .isEqualTo("{\"id\":\"T000000000060000\",\"type\":\"tumbling\",\"start\":\"1970-01-01T00:01:00.000Z\",\"end\":\"1970-01-01T00:02:00.000Z\"}");
        assertThat(json.get("openedAt").textValue()).isEqualTo("2024-05-01T12:00:00.123Z");
        assertThat(json.get("closedAt").textValue()).isEqualTo("2024-05-01T12:01:05.000Z");
        assertThat(json.get("aggregations").get("rows").toString()).isEqualTo("{\"value\":15,\"skipped\":0}");
    }

    @Test
    void reEmissionDiffersOnlyInEmittedAt() {
        AggregateEvent event = twoOfFourShards(0, null, CloseReason.WATERMARK);

        ObjectNode first = event.toJson(CLOSED);
        ObjectNode again = AggregateEvent.fromJson(first).toJson(CLOSED.plusSeconds(30));

        assertThat(again.get("emittedAt")).isNotEqualTo(first.get("emittedAt"));
        first.remove("emittedAt");
        again.remove("emittedAt");
        assertThat(again).isEqualTo(first);
    }

    @Test
    void correctionReferencesThePreviousRevision() {
        ObjectNode json = twoOfFourShards(1, REF.aggregateId(0), CloseReason.LATE_CORRECTION).toJson(CLOSED);

        assertThat(validate(json)).isEmpty();
        assertThat(json.get("corrects").textValue()).isEqualTo("9:test-pipe/5:job-7/T000000000060000/r0");
        assertThat(json.get("aggregateId").textValue()).endsWith("/r1");
    }

    /** Intake admits line separators in keys; the schema's patterns must match them in every id (a review: continues did not). */
    @ParameterizedTest
    @ValueSource(strings = {"\u2028", "\u2029", "\u0085"})
    void aContinuationOfAKeyHoldingALineSeparatorValidates(String separator) {
        String key = "a" + separator + "b";
        String cut = new WindowRef("test-pipe", key, "S000000000060000").aggregateId(0);
        ObjectNode json = AggregateEvent.builder(new WindowRef("test-pipe", key, "S000000000070000"), WindowKind.SESSION,
                        new Interval(70_000, 100_000))
                .revision(0).continues(cut).closeReason(CloseReason.SESSION_GAP)
                .completeness(Completeness.initial(SHARDS)).aggregations(Aggregates.empty(SHARDS.aggregations()))
                .eventTimes(Instant.ofEpochMilli(70_000), Instant.ofEpochMilli(70_000))
                .openedAt(OPENED).closedAt(CLOSED)
                .build().toJson(CLOSED);

        assertThat(json.get("continues").textValue()).isEqualTo(cut);
        assertThat(validate(json)).isEmpty();
    }

    @Test
    void firstRevisionCannotCorrectAnything() {
        assertThatThrownBy(() -> twoOfFourShards(0, "x", CloseReason.LATE_CORRECTION)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pipelineWithoutCompletenessEmitsNullsAndValidates() {
        PipelineConfig plain = pipeline().build();
        AggregateEvent event = AggregateEvent.builder(new WindowRef("test-pipe", "k", WindowRef.sessionId(5)), WindowKind.SESSION, new Interval(5, 10))
                .closeReason(CloseReason.SESSION_GAP).completeness(Completeness.initial(plain).observe(plain, event("a", 5)))
                .aggregations(Aggregates.empty(plain.aggregations()).add(event("a", 5)))
                .eventTimes(Instant.ofEpochMilli(5), Instant.ofEpochMilli(5)).openedAt(OPENED).closedAt(CLOSED).build();

        ObjectNode json = event.toJson(CLOSED);

        assertThat(validate(json)).isEmpty();
        assertThat(json.get("complete").booleanValue()).isTrue();
        assertThat(json.get("expected").isNull()).isTrue();
        assertThat(json.get("missing").isNull()).isTrue();
        assertThat(json.get("missingCount").isNull()).isTrue();
    }

    @Test
    void schemaRejectsUnknownFieldsAndMalformedTimes() {
        ObjectNode extra = twoOfFourShards(0, null, CloseReason.COUNT).toJson(CLOSED);
        extra.put("surprise", 1);
        ObjectNode badTime = twoOfFourShards(0, null, CloseReason.COUNT).toJson(CLOSED);
        badTime.put("emittedAt", "2024-05-01T12:01:05Z");
        ObjectNode noReason = twoOfFourShards(0, null, CloseReason.COUNT).toJson(CLOSED);
        noReason.remove("closeReason");

        assertThat(validate(extra)).isNotEmpty();
        assertThat(validate(badTime)).isNotEmpty();
        assertThat(validate(noReason)).isNotEmpty();
    }

    @Test
    void anOperatorCloseCarriesItsNoteAndValidatesWhileOtherClosesHaveNone() {
        ObjectNode operator = AggregateEvent.builder(REF, WindowKind.TUMBLING, new Interval(60_000, 120_000))
                .closeReason(CloseReason.OPERATOR).completeness(Completeness.initial(SHARDS)).openedAt(OPENED).closedAt(CLOSED)
                .operatorNote("shards lost with host x \"ip-10\"; INC-42").build().toJson(CLOSED);
        ObjectNode other = twoOfFourShards(0, null, CloseReason.HARD_LIFETIME).toJson(CLOSED);

        assertThat(validate(operator)).isEmpty();
        assertThat(operator.path("closeReason").asText()).isEqualTo("OPERATOR");
        assertThat(operator.path("complete").asBoolean()).isFalse();
        assertThat(operator.path("operatorNote").asText()).isEqualTo("shards lost with host x \"ip-10\"; INC-42");
        assertThat(AggregateEvent.fromJson(operator).operatorNote()).isEqualTo("shards lost with host x \"ip-10\"; INC-42");
        assertThat(other.has("operatorNote")).isFalse();
        assertThat(validate(other)).isEmpty();
    }

    @Test
    void aNoteBelongsToAnOperatorCloseAndIsPlainBoundedText() {
        AggregateEvent.Builder hard = AggregateEvent.builder(REF, WindowKind.TUMBLING, new Interval(60_000, 120_000))
                .closeReason(CloseReason.HARD_LIFETIME).completeness(Completeness.initial(SHARDS)).openedAt(OPENED).closedAt(CLOSED);
        AggregateEvent.Builder operator = AggregateEvent.builder(REF, WindowKind.TUMBLING, new Interval(60_000, 120_000))
                .closeReason(CloseReason.OPERATOR).completeness(Completeness.initial(SHARDS)).openedAt(OPENED).closedAt(CLOSED);

        assertThatThrownBy(() -> hard.operatorNote("why").build())
                .hasMessageContaining("belongs to an OPERATOR close");
        assertThatThrownBy(() -> operator.operatorNote("line\nbreak").build())
                .hasMessage(AggregateEvent.NOTE_RULE);
        assertThatThrownBy(() -> operator.operatorNote("x".repeat(1001)).build())
                .hasMessageContaining("1 to 1000 characters");
    }
}
