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
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Completeness#mergedWith}: the completeness of two sessions merged by a bridging event (docs/SEMANTICS.md,
 * "Session windows and how they merge"). The merged value is what one session observing both sides' events would know;
 * {@code CompletenessMergeProperties} checks that over random splits.
 */
class CompletenessMergeTest {

    /** Shards carry "shard" (member, from 0) and may carry "of" (the expected count); a "done" event is the sentinel. */
    static final PipelineConfig SHARDS = pipeline()
            .expected(new ExpectedSpec(null, path("$.of"), path("$.shard"), 0))
            .sentinel(new SentinelSpec(new Condition(path("$.type"), "done", null, null, null), ValueRef.of(path("$.of")), true))
            .build();

    static Completeness observed(PipelineConfig config, String... payloads) {
        Completeness c = Completeness.initial(config);
        for (int i = 0; i < payloads.length; i++) {
            c = c.observe(config, event("e" + i, i, payloads[i]));
        }
        return c;
    }

    private static String shard(int member, Integer of) {
        return of == null ? "{\"shard\":" + member + "}" : "{\"shard\":" + member + ",\"of\":" + of + "}";
    }

    @ParameterizedTest(name = "expected {0} + {1} -> {2}, conflicts +{3}")
    @CsvSource(nullValues = "-", value = {
            "3, -, 3, 0",   // the known count wins
            "-, 4, 4, 0",   // from either side
            "4, 4, 4, 0",   // agreeing: no conflict
            "4, 6, 4, 1",   // disagreeing: the survivor's count, one conflict
            "-, -, -, 0",
    })
    void theFirstKnownExpectedCountWinsAndADisagreementIsAConflict(Integer left, Integer right, Integer merged, long conflicts) {
        Completeness a = observed(SHARDS, shard(0, left));
        Completeness b = observed(SHARDS, shard(1, right));

        Completeness m = a.mergedWith(b);

        assertThat(m.expected()).isEqualTo(merged);
        assertThat(m.conflicts()).isEqualTo(conflicts);
        assertThat(m.rules()).isEqualTo(a.rules());
    }

    @Test
    void membersUniteAndCountsAdd() {
        // Left: shards 0 and 2 of 4 and one without a member; right: shard 2 again, shard 3 and an unusable count.
        Completeness a = observed(SHARDS, shard(0, 4), shard(2, 4), "{\"of\":4}");
        Completeness b = observed(SHARDS, shard(2, null), shard(3, 4), "{\"of\":\"x\"}");

        Completeness m = a.mergedWith(b);

        assertThat(m.members()).containsExactly(0, 2, 3);
        assertThat(m.seen()).isEqualTo(6);
        assertThat(m.ignoredMembers()).isEqualTo(a.ignoredMembers() + b.ignoredMembers()).isEqualTo(2);
        assertThat(m.conflicts()).isEqualTo(1);
        assertThat(m.isComplete()).isFalse();
        assertThat(m.missingMembers().orElseThrow().members()).containsExactly(1);
        assertThat(m.missingCount()).isEqualTo(OptionalLong.of(1));
        assertThat(m.mergedWith(observed(SHARDS, shard(1, null))).isComplete()).isTrue();
    }

    @ParameterizedTest(name = "sentinel left={0} right={1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    void aSentinelSeenOnEitherSideIsSeen(boolean left, boolean right) {
        Completeness a = observed(SHARDS, left ? "{\"type\":\"done\",\"shard\":0,\"of\":2}" : shard(0, 2));
        Completeness b = observed(SHARDS, right ? "{\"type\":\"done\",\"shard\":1,\"of\":2}" : shard(1, 2));

        Completeness m = a.mergedWith(b);

        assertThat(m.sentinelSeen()).isEqualTo(left || right);
        assertThat(m.isComplete()).isTrue();
    }

    /**
     * A side that had not learned the count kept a member the merged count rules out: the merge keeps it (a later
     * change of the count may bring it in) but does not count it, so the merged session, still missing member 2, is not
     * complete.
     */
    @Test
    void aMemberBeyondTheMergedCountIsKeptNotCounted() {
        Completeness unaware = observed(SHARDS, shard(0, null), shard(7, null));
        Completeness knowing = observed(SHARDS, shard(1, 3));

        for (Completeness m : List.of(unaware.mergedWith(knowing), knowing.mergedWith(unaware))) {
            assertThat(m.expected()).isEqualTo(3);
            assertThat(m.members()).containsExactly(0, 1, 7);
            assertThat(m.ignoredMembers()).isZero();
            assertThat(m.expectedReached()).isFalse();
            assertThat(m.missingMembers().orElseThrow().members()).containsExactly(2);
        }
        Completeness allAtOnce = observed(SHARDS, shard(0, null), shard(7, null), shard(1, 3));
        assertThat(unaware.mergedWith(knowing)).isEqualTo(allAtOnce);
    }
}
