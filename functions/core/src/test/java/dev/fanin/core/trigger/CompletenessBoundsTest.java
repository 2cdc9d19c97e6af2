package dev.fanin.core.trigger;

import static dev.fanin.core.trigger.EventFixture.event;
import static dev.fanin.core.trigger.PipelineFixture.path;
import static dev.fanin.core.trigger.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.ConfigDefaults;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.PipelineConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The edges of what completeness accepts: expected counts from 0 to Integer.MAX_VALUE, members up to the cap. */
class CompletenessBoundsTest {

    private static final PipelineConfig COUNTED = pipeline().expected(new ExpectedSpec(null, path("$.of"), null, 0)).build();

    @ParameterizedTest(name = "of={0} -> expected {1}, conflicts {2}")
    @CsvSource(nullValues = "-", value = {"0, 0, 0", "-1, -, 1", "2147483647, 2147483647, 0", "2147483648, -, 1"})
    void anExpectedCountFromZeroToIntegerMaxIsTaken(long of, Integer expected, long conflicts) {
        Completeness c = Completeness.initial(COUNTED).observe(COUNTED, event("e", 0, "{\"of\":" + of + "}"));

        assertThat(c.expected()).isEqualTo(expected);
        assertThat(c.conflicts()).isEqualTo(conflicts);
    }

    @Test
    void exactlyTheMemberCapIsStillDecidedByMembers() {
        PipelineConfig atCap = pipeline().expected(new ExpectedSpec(Completeness.MAX_MEMBERS, null, path("$.shard"), 0)).build();
        Completeness c = Completeness.initial(atCap).observe(atCap, event("a", 0, "{\"shard\":9999}"));

        assertThat(c.members()).containsExactly(9_999);
        assertThat(c.missingMembers()).isPresent();
        assertThat(c.missingCount()).hasValue(Completeness.MAX_MEMBERS - 1);
    }

    @Test
    void theTopMembersOfTheLargestFirstMemberAreListedAndReadBack() {
        int first = ConfigDefaults.LAST_FIRST_MEMBER;
        PipelineConfig top = pipeline().expected(new ExpectedSpec(Completeness.MAX_MEMBERS, null, path("$.m"), first)).build();
        int last = first + Completeness.MAX_MEMBERS - 1;
        Completeness c = Completeness.initial(top).observe(top, event("e1", 0, "{\"m\":" + last + "}"));

        assertThat(c.members()).containsExactly(last);
        assertThat(c.missingCount()).hasValue(Completeness.MAX_MEMBERS - 1);
        assertThat(c.missingMembers().orElseThrow().members()).startsWith(first, first + 1).doesNotContain(last);
        assertThat(Completeness.fromJson(top, c.toJson())).isEqualTo(c);
    }

    @Test
    void aStoredRangeEndingAtIntegerMaxIsReadBack() throws Exception {
        // Written under a firstMember the loader now refuses; reading it must still end.
        var stored = new ObjectMapper().readTree("{\"e\":3,\"m\":[[2147483645,2147483647]],\"im\":0,\"s\":false,\"n\":3,\"c\":0}");

        Completeness read = Completeness.fromJson(pipeline().build(), stored);
        assertThat(read.members()).as("outside what the configuration in force tracks: dropped as ignored").isEmpty();
        assertThat(read.ignoredMembers()).isEqualTo(3);
    }
}
