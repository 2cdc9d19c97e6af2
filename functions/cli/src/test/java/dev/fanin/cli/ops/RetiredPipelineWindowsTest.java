package dev.fanin.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.aws.dynamodb.DynamoDbPipelineHistory;
import dev.fanin.core.port.PipelineHistory;
import dev.fanin.testkit.LocalAwsEndpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A configuration change that removes a pipeline leaves its open windows to close under its last definition; until
 * then the operator commands see them and act on them as on any (they once answered "no pipeline" and skipped them,
 * telling the operator to pass a --config that no longer has it).
 */
class RetiredPipelineWindowsTest {

    /** {@link WindowsCommandTest#JOBS}, with the jobs pipeline gone and another in its place. */
    private static final String WITHOUT_JOBS = WindowsCommandTest.JOBS.replace("name: jobs", "name: batches");

    @TempDir
    Path dir;

    @Test
    void aRetiredPipelinesHeldWindowIsListedCountedAndClosedByTheOperator() throws Exception {
        OperatedFixture stack = new OperatedFixture(dir, WindowsCommandTest.JOBS);
        holdJob7(stack);
        stack.newAggregates();

        stack.useConfig(dir, WITHOUT_JOBS);

        OperatedFixture.Run list = stack.fanin("", "windows", "list", "--pipeline", "jobs", "--status", "held");
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.err()).doesNotContain("skipped");
        Matcher row = Pattern.compile("(?m)^HELD .* jobs +job-7 +(T\\d+) ").matcher(list.out());
        assertThat(row.find()).as(list.out()).isTrue();

        OperatedFixture.Run status = stack.fanin("", "status");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out()).contains("pipeline jobs (retired: no longer configured").containsPattern("open windows +1 .*1 held");

        OperatedFixture.Run close = stack.fanin("y\n", "windows", "close", "--pipeline", "jobs", "--key", "job-7", "--window", row.group(1),
                "--note", "the jobs pipeline was replaced");
        assertThat(close.exit()).as(close.err()).isZero();
        assertThat(stack.newAggregates()).singleElement().satisfies((JsonNode a) -> {
            assertThat(a.path("pipeline").asText()).isEqualTo("jobs");
            assertThat(a.path("closeReason").asText()).isEqualTo("OPERATOR");
        });

        OperatedFixture.Run unknown = stack.fanin("", "windows", "list", "--pipeline", "nightly");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("no pipeline \"nightly\"; the stack's pipelines are: batches, jobs (retired)");
    }

    @Test
    void closingARetiredPipelinesWindowWhoseTargetIsGoneSaysItStaysClaimedAndWhy() throws Exception {
        // jobs emits to the stack's EmitQueueUrl; the deployment that removes jobs clears it too.
        String jobsToSqs = WindowsCommandTest.JOBS.replace(
                "eventbridge: {bus: \"${FANIN_EMIT_BUS_NAME}\", source: fanin, detailType: fanin.aggregate}",
                "sqs: {queueUrl: \"${FANIN_EMIT_QUEUE_URL}\"}");
        String emitQueue = LocalAwsEndpoint.shared().sqs().createQueue(r -> r.queueName("ops-emit-" + UUID.randomUUID().toString()
                .substring(0, 8))).queueUrl();
        OperatedFixture stack = new OperatedFixture(dir, jobsToSqs, Map.of("FANIN_EMIT_QUEUE_URL", emitQueue));
        holdJob7(stack);
        stack.useConfig(dir, WITHOUT_JOBS, Map.of());
        Matcher row = Pattern.compile("(?m)^HELD .* jobs +job-7 +(T\\d+) ").matcher(stack.fanin("", "windows", "list", "--status", "held").out());
        assertThat(row.find()).isTrue();

        OperatedFixture.Run close = stack.fanin("", "windows", "close", "--pipeline", "jobs", "--key", "job-7", "--window", row.group(1),
                "--note", "the jobs pipeline was replaced", "--yes");

        assertThat(close.exit()).as(close.out() + close.err()).isEqualTo(1);
        assertThat(close.out()).containsPattern("(?m)^CLAIMED +jobs +job-7 +" + row.group(1) + " +OPERATOR ")
                .contains("emission failed, its target is missing: pipeline jobs (retired) emits to SQS queue ${FANIN_EMIT_QUEUE_URL}",
                        "NoTarget")
                .doesNotContain("CLOSED ");
        OperatedFixture.Run show = stack.fanin("", "windows", "show", "--pipeline", "jobs", "--key", "job-7", "--window", row.group(1), "--json");
        assertThat(OperatedFixture.JSON.readTree(show.out()).path("status").asText()).isEqualTo("CLAIMED");
    }

    @Test
    void anOperatorsCommandWithAnotherConfigurationRecordsNothingInThePipelineHistory() throws Exception {
        OperatedFixture stack = new OperatedFixture(dir, WindowsCommandTest.JOBS);
        stack.send("{\"job\":\"job-1\",\"shard\":0,\"n\":4,\"at\":\"" + Instant.now() + "\"}");
        stack.deliver();
        DynamoDbPipelineHistory history = new DynamoDbPipelineHistory(stack.endpoint.dynamoDb(), stack.resources.tableName());
        List<PipelineHistory.Definition> before = history.recorded();

        stack.operatorUses(dir, WITHOUT_JOBS);
        OperatedFixture.Run list = stack.fanin("", "windows", "list");

        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(history.recorded()).as("the draft's pipelines are not the stack's").isEqualTo(before)
                .extracting(PipelineHistory.Definition::pipeline).containsExactly("jobs");
    }

    /** job-7's window, two hours old and one shard of four in: held incomplete once a sweep finds it past its end. */
    private static void holdJob7(OperatedFixture stack) throws Exception {
        Instant past = Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.HOURS);
        stack.send("{\"job\":\"job-7\",\"shard\":0,\"n\":4,\"at\":\"" + past + "\"}");
        stack.deliver();
        stack.send("{\"job\":\"fresh\",\"shard\":0,\"n\":1,\"at\":\"" + Instant.now() + "\"}");
        stack.deliver();
        stack.sweep(Duration.ofMinutes(2));
    }
}
