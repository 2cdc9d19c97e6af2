package dev.fanin.core.trigger;

import static dev.fanin.core.trigger.EventFixture.event;
import static dev.fanin.core.trigger.PipelineFixture.path;
import static dev.fanin.core.trigger.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SizeBudget;
import org.junit.jupiter.api.Test;

/**
 * Members seen are kept across configuration changes (found by a review): a session merge or a newly learned count
 * under one configuration deleted members beyond its count, so back under the first they were "missing"; and only
 * members a window can track under the configuration in force are kept, so its state stays within the size the
 * loader budgets (members kept across a firstMember change outgrew it).
 */
class MembersAcrossChangesTest {

    static PipelineConfig counted(int count, int first) {
        return pipeline().expected(new ExpectedSpec(count, null, path("$.m"), first)).build();
    }

    static Completeness m(Completeness c, PipelineConfig p, int member) {
        return c.observe(p, event("e" + member, 0, "{\"m\":" + member + "}"));
    }

    @Test
    void aSessionMergeUnderALowerCountKeepsAMemberBeyondIt() {
        PipelineConfig a = counted(4, 0);
        PipelineConfig b = counted(3, 0);
        Completeness s1 = Completeness.fromJson(b, m(m(Completeness.initial(a), a, 0), a, 3).toJson());
        Completeness s2 = m(Completeness.initial(b), b, 1);
        Completeness merged = s1.mergedWith(s2);
        Completeness backToA = m(Completeness.fromJson(a, merged.toJson()), a, 2);
        assertThat(backToA.expectedReached()).as("members 0..3 all seen").isTrue();
    }

    @Test
    void learningALowerCountKeepsAMemberBeyondIt() {
        PipelineConfig a = counted(4, 0);
        PipelineConfig b = pipeline().expected(new ExpectedSpec(null, path("$.of"), path("$.m"), 0)).build();
        Completeness underA = m(m(m(Completeness.initial(a), a, 0), a, 1), a, 3);
        Completeness underB = Completeness.fromJson(b, underA.toJson()).observe(b, event("x", 0, "{\"of\":2}"));
        Completeness backToA = m(Completeness.fromJson(a, underB.toJson()), a, 2);
        assertThat(backToA.expectedReached()).as("members 0..3 all seen").isTrue();
    }

    @Test
    void membersOutsideTheTrackedRangeOfTheConfigurationInForceAreDropped() {
        PipelineConfig p0 = counted(Completeness.MAX_MEMBERS, 0);
        PipelineConfig p1 = counted(Completeness.MAX_MEMBERS, 20_000);
        StringBuilder m = new StringBuilder("{\"m\":[");
        for (int i = 0; i < Completeness.MAX_MEMBERS; i += 2) {
            m.append(i == 0 ? "" : ",").append('[').append(i).append(',').append(i).append(']');
        }
        m.append("],\"im\":0,\"s\":false,\"n\":5000,\"c\":0}");
        Completeness c = Completeness.fromJson(p1, EventFixture.json(m.toString()));
        for (int i = 20_000; i < 20_000 + Completeness.MAX_MEMBERS; i += 2) {
            c = m(c, p1, i);
        }
        long bytes = c.toJson().toString().length();
        assertThat(bytes).isLessThanOrEqualTo(SizeBudget.completenessBytes(p1));
    }
}
