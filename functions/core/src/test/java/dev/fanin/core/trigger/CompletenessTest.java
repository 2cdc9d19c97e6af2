package dev.fanin.core.trigger;

import static dev.fanin.core.trigger.EventFixture.event;
import static dev.fanin.core.trigger.PipelineFixture.path;
import static dev.fanin.core.trigger.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.Condition;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SentinelSpec;
import dev.fanin.core.config.ValueRef;
import dev.fanin.core.window.CloseReason;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CompletenessTest {

    /** Shards carry "shard" (member) and "of" (expected count); members start at 0. */
    private static final PipelineConfig SHARDS = pipeline().expected(new ExpectedSpec(null, path("$.of"), path("$.shard"), 0)).build();

    /** Uploads end with a manifest whose key names the file count: {@code _manifest-3.json}. */
    private static final PipelineConfig UPLOADS = pipeline().sentinel(new SentinelSpec(
            new Condition(path("$.key"), null, null, Pattern.compile(".*_manifest-\\d+\\.json"), null),
            new ValueRef(path("$.key"), Pattern.compile("_manifest-(\\d+)\\.json$")), false)).build();

    /** A _SUCCESS object alone completes. */
    private static final PipelineConfig SUCCESS_MARKER = pipeline().sentinel(new SentinelSpec(
            new Condition(path("$.key"), null, null, Pattern.compile(".*/_SUCCESS"), null), null, false)).build();

    private static Completeness observeAll(PipelineConfig config, String... payloads) {
        Completeness c = Completeness.initial(config);
        for (int i = 0; i < payloads.length; i++) {
            c = c.observe(config, event("e" + i, i, payloads[i]));
        }
        return c;
    }

    @Test
    void shardsCompleteWhenEveryMemberSeen() {
        Completeness partial = observeAll(SHARDS, "{\"shard\":0,\"of\":3}", "{\"shard\":2,\"of\":3}");
        Completeness full = partial.observe(SHARDS, event("x", 9, "{\"shard\":1,\"of\":3}"));

        assertThat(partial.isComplete()).isFalse();
        assertThat(partial.expected()).isEqualTo(3);
        assertThat(partial.missingCount()).isEqualTo(OptionalLong.of(1));
        assertThat(partial.missingMembers()).contains(new Completeness.MissingMembers(List.of(1), false));
        assertThat(full.isComplete()).isTrue();
        assertThat(full.missingMembers()).contains(new Completeness.MissingMembers(List.of(), false));
    }

    @Test
    void repeatedMemberDoesNotCompleteAlthoughCountReached() {
        Completeness c = observeAll(SHARDS, "{\"shard\":0,\"of\":2}", "{\"shard\":0,\"of\":2}");

        assertThat(c.seen()).isEqualTo(2);
        assertThat(c.isComplete()).isFalse();
        assertThat(c.missingMembers().orElseThrow().members()).containsExactly(1);
    }

    @Test
    void disagreeingCountKeepsFirstAndCountsConflict() {
        Completeness c = observeAll(SHARDS, "{\"shard\":0,\"of\":2}", "{\"shard\":1,\"of\":5}", "{\"shard\":1,\"of\":\"many\"}");

        assertThat(c.expected()).isEqualTo(2);
        assertThat(c.conflicts()).isEqualTo(2);
        assertThat(c.isComplete()).isTrue();
    }

    @Test
    void membersOutOfRangeOrMissingAreIgnoredAndCounted() {
        Completeness c = observeAll(SHARDS, "{\"shard\":-1,\"of\":2}", "{\"shard\":2,\"of\":2}", "{\"of\":2}", "{\"shard\":1}");

        assertThat(c.members()).as("member 2 is beyond the count of 2: kept, not counted").containsExactly(1, 2);
        assertThat(c.ignoredMembers()).as("-1 is below firstMember; one names none").isEqualTo(2);
        assertThat(c.missingMembers().orElseThrow().members()).containsExactly(0);
    }

    @Test
    void membersBeyondALaterLearnedCountAreKeptAndNotCounted() {
        Completeness c = observeAll(SHARDS, "{\"shard\":7}", "{\"shard\":0}", "{\"shard\":1,\"of\":2}");

        assertThat(c.members()).containsExactly(0, 1, 7);
        assertThat(c.ignoredMembers()).isZero();
        assertThat(c.isComplete()).isTrue();
    }

    @Test
    void missingMembersAreCappedAndFlagged() {
        PipelineConfig many = pipeline().expected(new ExpectedSpec(5_000, null, path("$.shard"), 1)).build();
        Completeness c = Completeness.initial(many).observe(many, event("a", 0, "{\"shard\":1}"));

        Completeness.MissingMembers missing = c.missingMembers().orElseThrow();
        assertThat(missing.members()).hasSize(Completeness.MAX_MISSING_LISTED).startsWith(2, 3).endsWith(1_001);
        assertThat(missing.truncated()).isTrue();
        assertThat(c.missingCount()).isEqualTo(OptionalLong.of(4_999));
    }

    @Test
    void expectedBeyondMemberCapFallsBackToSeenCount() {
        PipelineConfig huge = pipeline().expected(new ExpectedSpec(Completeness.MAX_MEMBERS + 1, null, path("$.shard"), 0)).build();
        Completeness c = Completeness.initial(huge).observe(huge, event("a", 0, "{\"shard\":10000}"));

        assertThat(c.members()).isEmpty();
        assertThat(c.ignoredMembers()).isEqualTo(1);
        assertThat(c.missingMembers()).isEmpty();
        assertThat(c.missingCount()).isEqualTo(OptionalLong.of(Completeness.MAX_MEMBERS));
    }

    @Test
    void sentinelSuppliesExpectedCountAndDoesNotItselfCount() {
        Completeness two = observeAll(UPLOADS, "{\"key\":\"in/a.csv\"}", "{\"key\":\"in/b.csv\"}", "{\"key\":\"in/_manifest-3.json\"}");
        Completeness three = two.observe(UPLOADS, event("c", 9, "{\"key\":\"in/c.csv\"}"));

        assertThat(two.sentinelSeen()).isTrue();
        assertThat(two.expected()).isEqualTo(3);
        assertThat(two.seen()).isEqualTo(2);
        assertThat(two.sentinelCompleted()).isFalse();
        assertThat(two.isComplete()).isFalse();
        assertThat(three.expectedReached()).isTrue();
    }

    @Test
    void sentinelWithoutConfiguredCountCompletesAlone() {
        Completeness c = observeAll(SUCCESS_MARKER, "{\"key\":\"in/a.csv\"}", "{\"key\":\"in/_SUCCESS\"}");

        assertThat(c.sentinelCompleted()).isTrue();
        assertThat(c.isComplete()).isTrue();
        assertThat(c.expected()).isNull();
        assertThat(c.missingCount()).isEqualTo(OptionalLong.of(0));
        assertThat(Triggers.holding(SUCCESS_MARKER, new WindowFacts(dev.fanin.core.window.WindowKind.TUMBLING,
                new dev.fanin.core.window.Interval(0, 10), c.seen(), c, java.time.Instant.MAX, false), 0, java.time.Instant.EPOCH))
                .containsExactly(CloseReason.SENTINEL);
    }

    /** Expected members and a sentinel without a count: the sentinel completes the window, and then nothing is missing. */
    @Test
    void aWindowASentinelCompletesListsNoMissingMembers() {
        PipelineConfig config = pipeline().expected(new ExpectedSpec(3, null, path("$.m"), 0))
                .sentinel(new SentinelSpec(new Condition(path("$.type"), "done", null, null, null), null, false)).build();
        Completeness c = observeAll(config, "{\"m\":0}", "{\"type\":\"done\"}");

        assertThat(c.isComplete()).isTrue();
        assertThat(c.missingCount()).isEqualTo(OptionalLong.of(0));
        assertThat(c.missingMembers()).as("was members 1 and 2 beside complete=true").contains(new Completeness.MissingMembers(List.of(), false));
    }

    @Test
    void sentinelLackingItsConfiguredCountIsAConflict() {
        PipelineConfig config = pipeline().sentinel(new SentinelSpec(new Condition(path("$.type"), "manifest", null, null, null),
                ValueRef.of(path("$.files")), true)).build();

        Completeness c = observeAll(config, "{\"type\":\"manifest\"}");

        assertThat(c.conflicts()).isEqualTo(1);
        assertThat(c.seen()).isEqualTo(1);
        assertThat(c.isComplete()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(CloseReason.class)
    void pipelineWithoutCompletenessIsCompleteOnlyWhenClosedByCountOrEventTime(CloseReason reason) {
        Completeness c = observeAll(pipeline().build(), "{}");

        assertThat(c.rules().known()).isFalse();
        assertThat(c.isComplete()).isFalse();
        assertThat(c.missingCount()).isEmpty();
        boolean expected = switch (reason) {
            case COUNT, WATERMARK, SESSION_GAP, LATE_CORRECTION -> true;
            default -> false;
        };
        assertThat(c.completeOnClose(reason)).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(value = CloseReason.class, names = "LATE_CORRECTION", mode = EnumSource.Mode.EXCLUDE)
    void aCorrectionWithoutCompletenessIsAsCompleteAsTheCloseItCorrects(CloseReason firstClose) {
        Completeness closed = observeAll(pipeline().build(), "{}").closedBy(firstClose);
        boolean cut = firstClose == CloseReason.HARD_LIFETIME || firstClose == CloseReason.SIZE_LIMIT
                || firstClose == CloseReason.SESSION_LIMIT || firstClose == CloseReason.OPERATOR;

        assertThat(closed.observe(pipeline().build(), event("late", 9, "{}")).completeOnClose(CloseReason.LATE_CORRECTION)).isEqualTo(!cut);
        assertThat(Completeness.fromJson(pipeline().build(), closed.toJson())).isEqualTo(closed);
    }

    @Test
    void aStoredCountIsTheLearnedOneAndTheConfiguredOneWins() throws Exception {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var stored = mapper.readTree("{\"e\":4,\"m\":[],\"im\":0,\"s\":false,\"n\":2,\"c\":0}");
        assertThat(Completeness.fromJson(SHARDS, stored).expected()).as("SHARDS learns counts from $.of").isEqualTo(4);
        PipelineConfig configured = pipeline().expected(new ExpectedSpec(3, null, null, 0)).build();
        assertThat(Completeness.fromJson(configured, stored).expected()).as("a configured count is known first").isEqualTo(3);
        assertThat(Completeness.initial(configured).toJson().has("e")).as("a configured count is not stored").isFalse();
        assertThat(Completeness.fromJson(pipeline().build(), stored).expected()).as("nothing expected any more").isNull();
    }

    @Test
    void jsonRoundTripIsExactAndCompact() {
        Completeness c = observeAll(SHARDS, "{\"shard\":0,\"of\":9}", "{\"shard\":1,\"of\":9}", "{\"shard\":2,\"of\":4}",
                "{\"shard\":5}", "{\"shard\":99}");

        assertThat(Completeness.fromJson(SHARDS, c.toJson())).isEqualTo(c);
        assertThat(c.toJson().toString()).isEqualTo("{\"e\":9,\"m\":[[0,2],[5,5],[99,99]],\"im\":0,\"s\":false,\"n\":5,\"c\":1}");
        Completeness empty = Completeness.initial(SHARDS);
        assertThat(Completeness.fromJson(SHARDS, empty.toJson())).isEqualTo(empty);
    }
}
