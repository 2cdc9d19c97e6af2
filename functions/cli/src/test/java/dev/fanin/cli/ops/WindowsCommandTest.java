package dev.fanin.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.dynamodb.WindowKeys;
import dev.fanin.core.window.WindowRef;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code fanin windows} against a stack on the local endpoint, through the real functions: a job whose shards do not
 * all arrive is held; the operator lists it with its missing shards, shows it, and closes it: exactly one aggregate,
 * reason OPERATOR, complete=false, the note in it; also when the deadline sweep races the close.
 */
class WindowsCommandTest {

    /** Four shards per job, tumbling hours; incomplete jobs are held until the 30-minute deadline, then fired flagged. */
    static final String JOBS = """
            version: 1
            pipelines:
              - name: jobs
                envelope: raw
                key: [$.job]
                eventId: $.shard
                eventTime: {path: $.at}
                window: {type: tumbling, size: 1h}
                triggers:
                  expected: {countPath: $.n, memberPath: $.shard, firstMember: 0}
                  maxLifetime: 30m
                incomplete: {policy: hold, atDeadline: fire-flagged}
                watermark: {outOfOrderness: 0s}
                aggregations:
                  - {name: shards, type: count}
                emit:
                  eventbridge: {bus: "${FANIN_EMIT_BUS_NAME}", source: fanin, detailType: fanin.aggregate}
            """;

    @TempDir
    Path dir;
    private OperatedFixture stack;
    /** Two hours ago, on the hour: every job's window ends long before the watermark a fresh job brings. */
    private final Instant past = Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.HOURS);

    @BeforeEach
    void stack() throws Exception {
        stack = new OperatedFixture(dir, JOBS);
    }

    private static String shard(String job, int shard, int of, Instant at) {
        return "{\"job\":\"" + job + "\",\"shard\":" + shard + ",\"n\":" + of + ",\"at\":\"" + at + "\"}";
    }

    /** Jobs with shards 0 and 2 of 4, then a complete job of now (the watermark passes their end), then a sweep: held. */
    private void holdJobs(String... jobs) {
        for (String job : jobs) {
            stack.send(shard(job, 0, 4, past));
            stack.send(shard(job, 2, 4, past.plusSeconds(5)));
        }
        stack.deliver();
        stack.send(shard("fresh", 0, 1, Instant.now()));
        stack.deliver();
        stack.sweep(Duration.ofMinutes(2));
    }

    @Test
    void aHeldJobIsListedWithItsMissingShardsShownAndClosedOnceByTheOperator() throws Exception {
        holdJobs("job-7");
        assertThat(stack.newAggregates()).extracting(a -> a.path("key").asText()).containsExactly("fresh");

        OperatedFixture.Run list = stack.fanin("", "windows", "list", "--status", "held");
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).containsPattern("(?m)^HELD +\\S+ +\\S+ +2 of 4 \\(missing 1, 3\\) +jobs +job-7 +T\\d+ +held incomplete")
                .contains("1 window from 1 Scan requests").contains("end of the table");
        java.util.regex.Matcher row = java.util.regex.Pattern.compile("job-7 +(T\\d+) ").matcher(list.out());
        assertThat(row.find()).isTrue();
        String windowId = row.group(1);

        OperatedFixture.Run show = stack.fanin("", "windows", "show", "--pipeline", "jobs", "--key", "job-7", "--window", windowId, "--json");
        assertThat(show.exit()).as(show.err()).isZero();
        JsonNode shown = OperatedFixture.JSON.readTree(show.out());
        assertThat(shown.path("status").asText()).isEqualTo("HELD");
        assertThat(shown.path("missing").toString()).isEqualTo("[1,3]");
        assertThat(shown.path("aggregations").path("shards").asInt()).isEqualTo(2);
        assertThat(shown.path("aggregateIds")).isEmpty();
        assertThat(shown.path("dueListings")).as("the sweeper will visit it again").isNotEmpty();
        OperatedFixture.Run text = stack.fanin("", "windows", "show", "--pipeline", "jobs", "--key", "job-7", "--window", windowId);
        assertThat(text.out()).as("a held window's next decision is its deadline, whatever due time was last stored")
                .containsPattern("(?m)^due +held: at its hard deadline in ");

        OperatedFixture.Run refused = stack.fanin("n\n", "windows", "close", "--pipeline", "jobs", "--key", "job-7", "--window", windowId,
                "--note", "shards 1 and 3 were lost with host ip-10-0-0-7");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("close 1 window? [y/N]", "not confirmed: nothing closed");
        assertThat(stack.newAggregates()).isEmpty();

        OperatedFixture.Run close = stack.fanin("y\n", "windows", "close", "--pipeline", "jobs", "--key", "job-7", "--window", windowId,
                "--note", "shards 1 and 3 were lost with host ip-10-0-0-7");
        assertThat(close.exit()).as(close.err()).isZero();
        assertThat(close.out()).containsPattern("CLOSED +jobs +job-7 +" + windowId + " +OPERATOR +incomplete \\(2 of 4, missing 1, 3\\)");
        List<JsonNode> aggregates = stack.newAggregates();
        assertThat(aggregates).singleElement().satisfies(a -> {
            assertThat(a.path("closeReason").asText()).isEqualTo("OPERATOR");
            assertThat(a.path("complete").asBoolean()).isFalse();
            assertThat(a.path("missing").toString()).isEqualTo("[1,3]");
            assertThat(a.path("operatorNote").asText()).isEqualTo("shards 1 and 3 were lost with host ip-10-0-0-7");
        });

        OperatedFixture.Run again = stack.fanin("", "windows", "close", "--pipeline", "jobs", "--key", "job-7", "--window", windowId,
                "--note", "again", "--yes");
        assertThat(again.out()).contains("NOT CLOSED", "it is CLOSED already");
        stack.sweep(Duration.ofMinutes(40));
        assertThat(stack.newAggregates()).as("neither a second close nor the deadline sweep fires it again").isEmpty();
        assertThat(stack.fanin("", "windows", "list", "--status", "held").out()).doesNotContain("job-7");
    }

    /** A window stored only for the too-late verdicts of its events is no window to close: the command says why. */
    @Test
    void aWindowKeptOnlyForTooLateVerdictsIsNotClosed() throws Exception {
        stack.send(shard("fresh", 0, 1, Instant.now()));
        stack.deliver();
        stack.send(shard("lost", 0, 4, past));
        stack.deliver();
        String windowId = dev.fanin.core.window.WindowRef.timeWindowId(past.toEpochMilli());

        OperatedFixture.Run close = stack.fanin("", "windows", "close", "--pipeline", "jobs", "--key", "lost", "--window", windowId,
                "--note", "the lost job", "--yes");

        assertThat(close.out()).as(close.err()).contains("NOT CLOSED", "it never opened: it only keeps the too-late verdicts of its events");
        assertThat(stack.newAggregates()).noneMatch(a -> a.path("key").asText().equals("lost"));
    }

    @Test
    void aListingLeftPastTheStacksDueShardsIsShown() throws Exception {
        int shards = Integer.parseInt(stack.resources.functionEnvironment().getOrDefault("FANIN_DUE_SHARDS", "16"));
        String windowId = WindowRef.timeWindowId(past.toEpochMilli());
        // A job whose window a deployment with 64 shards would have listed in a shard past this stack's.
        String job = IntStream.range(0, 1000).mapToObj(i -> "wide-" + i)
                .filter(k -> WindowKeys.shardOf(new WindowRef("jobs", k, windowId), 64) >= shards).findFirst().orElseThrow();
        holdJobs(job);
        DynamoDbClient dynamo = stack.endpoint.dynamoDb();
        String table = stack.resources.tableName();
        // Its listings in the stack's shards gone, one left by the wider deployment.
        dynamo.scanPaginator(r -> r.tableName(table)).items().stream().filter(i -> i.get("pk").s().startsWith("B#jobs#"))
                .forEach(i -> dynamo.deleteItem(d -> d.tableName(table).key(Map.of("pk", i.get("pk"), "sk", i.get("sk")))));
        Instant dueAt = Instant.now().plus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.SECONDS);
        new DynamoDbWindowStore(dynamo, table, new DynamoDbWindowStore.Settings(64, 32))
                .addDue("jobs", dueAt, List.of(new WindowRef("jobs", job, windowId)), dueAt.plus(Duration.ofHours(1)));

        OperatedFixture.Run show = stack.fanin("", "windows", "show", "--pipeline", "jobs", "--key", job, "--window", windowId, "--json");

        assertThat(show.exit()).as(show.err()).isZero();
        JsonNode shown = OperatedFixture.JSON.readTree(show.out());
        assertThat(shown.path("status").asText()).isEqualTo("HELD");
        assertThat(shown.path("dueListings")).extracting(JsonNode::asText).containsExactly(dueAt.toString());
    }

    @Test
    void closingRacingTheDeadlineSweepFiresEachWindowExactlyOnce() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(stack.endpoint.atomicConditionalWrites(),
                "plain moto's conditional writes are not atomic under concurrency: the race is DynamoDB's to decide");
        List<String> jobs = List.of("race-1", "race-2", "race-3", "race-4", "race-5", "race-6");
        holdJobs(jobs.toArray(String[]::new));
        stack.newAggregates();

        CyclicBarrier start = new CyclicBarrier(2);
        CompletableFuture<OperatedFixture.Run> operator = CompletableFuture.supplyAsync(() -> {
            await(start);
            return stack.fanin("", "windows", "close", "--pipeline", "jobs", "--all-held", "--note", "closing the lost jobs", "--yes");
        });
        CompletableFuture<Void> sweeper = CompletableFuture.runAsync(() -> {
            await(start);
            stack.sweep(Duration.ofMinutes(40));    // past every hard deadline: it claims HARD_LIFETIME where it gets there first
        });
        OperatedFixture.Run closed = operator.get();
        sweeper.get();
        stack.sweep(Duration.ofMinutes(45));

        List<JsonNode> aggregates = new ArrayList<>(stack.newAggregates());
        assertThat(closed.exit()).as(closed.out() + closed.err()).isZero();
        assertThat(aggregates.stream().map(a -> a.path("key").asText()).collect(Collectors.toList()))
                .as("one aggregate per window, whoever won").containsExactlyInAnyOrderElementsOf(jobs);
        for (JsonNode a : aggregates) {
            String key = a.path("key").asText();
            assertThat(a.path("revision").asInt()).isZero();
            assertThat(a.path("complete").asBoolean()).isFalse();
            String reason = a.path("closeReason").asText();
            assertThat(reason).isIn("OPERATOR", "HARD_LIFETIME");
            // A window the sweeper closed before the command listed the held ones is not named at all.
            String operatorClosed = "(?m)^CLOSED +jobs +" + key + " ";
            if (reason.equals("OPERATOR")) {
                assertThat(closed.out()).as("the command says it closed " + key).containsPattern(operatorClosed)
                        .doesNotContainPattern("NOT CLOSED +jobs +" + key + " ");
            } else {
                assertThat(closed.out()).as("the command does not claim " + key).doesNotContainPattern(operatorClosed);
            }
            assertThat(a.has("operatorNote")).isEqualTo(reason.equals("OPERATOR"));
        }
    }

    /** A review: an empty --status list was blamed on --next, and --limit 0 failed with an internal message, exit 1. */
    @Test
    void badCountsAndEmptyListsAreUsageErrorsNamingTheirFlag() {
        OperatedFixture.Run list = stack.fanin("", "windows", "list", "--status", ",");
        assertThat(list.exit()).isEqualTo(2);
        assertThat(list.err()).contains("--status: name at least one of").doesNotContain("--next");
        OperatedFixture.Run close = stack.fanin("", "windows", "close", "--pipeline", "jobs", "--all-held", "--limit", "0", "--yes",
                "--note", "n");
        assertThat(close.exit()).isEqualTo(2);
        assertThat(close.err()).contains("--limit must be at least 1, was 0");
    }

    @Test
    void theStackIsFoundByNameFromItsCloudFormationOutputs() throws Exception {
        holdJobs("job-s");
        String name = stack.createStack(stack.outputs());

        OperatedFixture.Run list = stack.faninAsIs("", "windows", "list", "--stack", name, "--status", "held");
        OperatedFixture.Run unknown = stack.faninAsIs("", "windows", "list", "--stack", "no-such-stack");

        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).containsPattern("HELD .* jobs +job-s ");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("cannot read stack no-such-stack").doesNotContain("\tat ");
    }

    /** During a ConfigurationRejected incident the command says how to name the configuration the functions still run. */
    @Test
    void anInvalidConfigurationIsReportedWithHowToNameTheOneInForce() throws Exception {
        holdJobs("job-c");
        stack.operatorUses(dir, JOBS.replace("type: tumbling", "type: tumblin"));

        OperatedFixture.Run list = stack.fanin("", "windows", "list");

        assertThat(list.exit()).as(list.out() + list.err()).isEqualTo(1);
        assertThat(list.err()).contains("fanin has no valid pipeline configuration").contains("is invalid")
                .contains("give it with --config FILE to read the windows").doesNotContain("\tat ");
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
