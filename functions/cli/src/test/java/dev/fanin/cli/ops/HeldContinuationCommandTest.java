package dev.fanin.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fanin windows close --all-held} on the local endpoint, through the real functions: the revision after a
 * SIZE_LIMIT split whose shard came after the sweeper closed the empty continuation is held under {@code hold} as a
 * HELD window is (it stays CLOSED), and the operator's release of every held window takes it too.
 */
class HeldContinuationCommandTest {

    private static final String SPLIT_JOBS = WindowsCommandTest.JOBS.replace("\n    incomplete:",
            "\n    bounds: {maxEventsPerWindow: 2, onOverflow: split}\n    incomplete:");

    @TempDir
    Path dir;
    private final Instant past = Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.HOURS);

    private static String shard(String job, int shard, int of, Instant at) {
        return "{\"job\":\"" + job + "\",\"shard\":" + shard + ",\"n\":" + of + ",\"at\":\"" + at + "\"}";
    }

    @Test
    void theReleaseOfEveryHeldWindowTakesAContinuationHoldingItsLateShard() throws Exception {
        OperatedFixture stack = new OperatedFixture(dir, SPLIT_JOBS);
        stack.send(shard("job-9", 0, 4, past));
        stack.send(shard("job-9", 1, 4, past.plusSeconds(1)));
        stack.deliver();
        stack.send(shard("fresh", 0, 1, Instant.now()));
        stack.deliver();
        stack.sweep(Duration.ofMinutes(2));
        List<JsonNode> first = stack.newAggregates();
        assertThat(first).extracting(a -> a.path("key").asText() + "/" + a.path("closeReason").asText())
                .containsExactlyInAnyOrder("job-9/SIZE_LIMIT", "fresh/EXPECTED_COMPLETE");

        stack.send(shard("job-9", 2, 4, past.plusSeconds(2)));
        stack.deliver();
        stack.sweep(Duration.ofMinutes(3));
        assertThat(stack.newAggregates()).as("held, not fired").isEmpty();

        OperatedFixture.Run closed = stack.fanin("", "windows", "close", "--pipeline", "jobs", "--all-held", "--note", "release", "--yes");

        assertThat(closed.exit()).as(closed.out() + closed.err()).isZero();
        assertThat(closed.out()).containsPattern("(?m)^CLOSED +jobs +job-9 ");
        List<JsonNode> released = stack.newAggregates();
        assertThat(released).hasSize(1);
        assertThat(released.get(0).path("revision").asInt()).isEqualTo(1);
        assertThat(released.get(0).path("closeReason").asText()).isEqualTo("OPERATOR");
        assertThat(released.get(0).path("aggregations").path("shards").asInt()).isEqualTo(1);
    }
}
