package dev.fanin.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.aws.dynamodb.WindowItemCodec;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@code fanin windows list} on a big table returns its first page after a bounded number of reads, whatever the
 * table's size (docs/OPERATIONS.md states the bound and the figure). The default suite lists 2,000 windows; the
 * documented measurement: {@code mvn -B -pl functions/cli -am test -Dtest=WindowListScaleTest -Dfanin.scale.windows=100000}.
 */
class WindowListScaleTest {

    private static final int WINDOWS = Integer.getInteger("fanin.scale.windows", 2_000);

    @TempDir
    Path dir;

    @Test
    void theFirstPageCostsAtMostMaxReadsScansOfPageSizeItems() throws Exception {
        Assumptions.assumeTrue(WINDOWS > 0);
        OperatedFixture stack = new OperatedFixture(dir, WindowsCommandTest.JOBS);
        fill(stack.endpoint.dynamoDb(), stack.resources.tableName());

        long started = System.nanoTime();
        OperatedFixture.Run run = stack.fanin("", "windows", "list", "--status", "held", "--json");
        long millis = (System.nanoTime() - started) / 1_000_000;

        assertThat(run.exit()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines).as("nothing but the windows and the page, one JSON object a line").allSatisfy(l -> assertThat(l).startsWith("{\""));
        JsonNode page = OperatedFixture.JSON.readTree(lines.get(lines.size() - 1));
        assertThat(page.path("reads").asInt()).isLessThanOrEqualTo(10);
        assertThat(page.path("itemsRead").asLong()).isLessThanOrEqualTo(500);
        assertThat(lines).hasSize(51);
        assertThat(page.path("next").isTextual()).isTrue();
        System.err.printf("WindowListScaleTest: %d windows; first page of %d in %d Scan requests, %d items read, %d ms%n",
                WINDOWS, lines.size() - 1, page.path("reads").asInt(), page.path("itemsRead").asLong(), millis);
    }

    /** {@link #WINDOWS} held jobs, each the head the store would write, 25 to a BatchWriteItem. */
    private static void fill(DynamoDbClient dynamo, String table) {
        PipelineConfig jobs = ConfigLoader.load(WindowsCommandTest.JOBS, "test").pipelines().get(0);
        WindowMachine machine = new WindowMachine(jobs, Duration.ofSeconds(30));
        Instant now = Instant.now();
        long hour = now.truncatedTo(ChronoUnit.HOURS).toEpochMilli();
        List<WriteRequest> batch = new ArrayList<>();
        for (int i = 0; i < WINDOWS; i++) {
            WindowRef ref = new WindowRef("jobs", "job-" + i, WindowRef.timeWindowId(hour));
            WindowState open = machine.open(ref, new Interval(hour, hour + 3_600_000), now);
            List<Event> events = new MessageIntake(ConfigLoader.load(WindowsCommandTest.JOBS, "test")).parse(new InboundMessage("m" + i,
                    "{\"job\":\"job-" + i + "\",\"shard\":0,\"n\":4,\"at\":\"" + now + "\"}", null, now)).accepted();
            WindowState held = machine.ingest(open, events, now.toEpochMilli(), now).next();
            dev.fanin.core.machine.Lifecycle l = held.lifecycle();
            StoredWindow stored = WindowCodec.encode(new WindowState(held.ref(), held.kind(), new dev.fanin.core.machine.Lifecycle(
                    dev.fanin.core.window.WindowStatus.HELD, l.version(), l.fence(), l.leaseUntil(), l.claim(), l.revision(), l.committedRevision(),
                    l.closedUnemitted(), l.closedBy(), l.committedDeadLettered()),
                    held.schedule(), held.contents(), held.times(), held.lineage(), held.layout()));
            batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(WindowItemCodec.head(stored, 1, Set.copyOf(stored.eventIds()), dev.fanin.aws.dynamodb.IdLayout.EMPTY))
                    .build()).build());
            if (batch.size() == 25 || i == WINDOWS - 1) {
                List<WriteRequest> items = List.copyOf(batch);
                dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, items)));
                batch.clear();
            }
        }
    }
}
