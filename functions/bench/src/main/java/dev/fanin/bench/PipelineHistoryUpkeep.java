package dev.fanin.bench;

import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.core.config.FaninConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What every function container pays to keep the pipeline history, whatever the traffic, so that a removed or renamed
 * pipeline's open windows still close under its last definition (docs/CONFIGURATION.md, "Changing the configuration
 * with open windows"). As the handlers do it ({@code FaninRuntime.refresh}, {@code PipelineRetirement.update},
 * {@code DynamoDbPipelineHistory}): an invocation that starts at least {@link #REFRESH} after its container last read
 * the history reads it again, two strongly consistent {@code Query}s (the ran items, one per pipeline; the definitions,
 * one per pipeline, each holding the whole configuration document); then it puts a ran item for each pipeline whose
 * last one is half a refresh old or more, and records each definition again (a conditional {@code PutItem} of the
 * document) once less than half of the retirement margin (a day) is left, so every {@link #RENEWAL}.
 *
 * <p>Replayed here over a run's invocations, container by container, on a bill of its own beside the window table's
 * (so that the per-batch reads of the history and grow tables stay the windows'). The deployment is taken as already
 * running: its definitions recorded when the run starts, its ran items stale.
 */
final class PipelineHistoryUpkeep {

    /** How often a container reads the history again ({@code LiveConfig.REFRESH}). */
    static final Duration REFRESH = Duration.ofMinutes(1);
    /** How often a definition is recorded again: half of {@code PipelineRetirement.MARGIN}, a day. */
    static final Duration RENEWAL = Duration.ofHours(12);
    /** A time as the adapter writes it: epoch milliseconds of every significant digit (DynamoDB sizes a number by them). */
    private static final AttributeValue EPOCH_MILLIS = AttributeValue.fromN("1795910412345");
    private static final AttributeValue EPOCH_SECONDS = AttributeValue.fromN("1795996812");

    private final DynamoDbBill bill = new DynamoDbBill();
    /** By pipeline: its ran item's size, and its definition's. */
    private final long[] ranBytes;
    private final long[] definitionBytes;
    private final Map<Integer, Instant> nextRead = new HashMap<>();
    private Instant lastRan = Instant.MIN;
    private Instant renewAt;

    /** @param document the configuration document the deployment reads ({@link BenchPipelines#document}) */
    PipelineHistoryUpkeep(FaninConfig config, String document, Instant start) {
        this.ranBytes = config.pipelines().stream().mapToLong(p -> ranItemBytes(p.name())).toArray();
        this.definitionBytes = config.pipelines().stream().mapToLong(p -> definitionItemBytes(p.name(), document)).toArray();
        this.renewAt = start.plus(RENEWAL);
    }

    /** The ran item of a pipeline: {@code pk=P#ran}, {@code sk}, {@code ran} (epoch ms), {@code ttl}. */
    static long ranItemBytes(String pipeline) {
        return DynamoDbItemSize.bytes(Map.of("pk", AttributeValue.fromS("P#ran"), "sk", AttributeValue.fromS(pipeline), "ran", EPOCH_MILLIS,
                "ttl", EPOCH_SECONDS));
    }

    /** The definition of a pipeline: {@code pk=P#pipelines}, {@code sk}, {@code doc}, {@code until} (epoch ms), {@code ttl}. */
    static long definitionItemBytes(String pipeline, String document) {
        return DynamoDbItemSize.bytes(Map.of("pk", AttributeValue.fromS("P#pipelines"), "sk", AttributeValue.fromS(pipeline),
                "doc", AttributeValue.fromS(document), "until", EPOCH_MILLIS, "ttl", EPOCH_SECONDS));
    }

    /**
     * An invocation of {@code function} starting in {@code container} at {@code now}: the history read and kept when
     * the container's refresh is due.
     */
    void invoked(int container, String function, Instant now) {
        if (now.isBefore(nextRead.getOrDefault(container, Instant.MIN))) {
            return;
        }
        nextRead.put(container, now.plus(REFRESH));
        bill.function(function);
        bill.purpose(Purpose.HISTORY_READ);
        query("P#ran", ranBytes);
        query("P#pipelines", definitionBytes);
        if (!lastRan.isAfter(now.minus(REFRESH.dividedBy(2)))) {
            lastRan = now;
            bill.purpose(Purpose.HISTORY_RAN);
            puts("P#ran", ranBytes);
        }
        if (!now.isBefore(renewAt)) {
            renewAt = now.plus(RENEWAL);
            bill.purpose(Purpose.HISTORY_RECORD);
            puts("P#pipelines", definitionBytes);
        }
    }

    /** One page of every pipeline's item of the partition. */
    private void query(String partition, long[] items) {
        long bytes = Arrays.stream(items).sum();
        bill.call("Query");
        bill.read(partition, CapacityRules.strongReadUnits(bytes), bytes);
    }

    /** A PutItem of every pipeline's item of the partition, which replaces one of the same size. */
    private void puts(String partition, long[] items) {
        for (long bytes : items) {
            bill.call("PutItem");
            bill.write(partition, CapacityRules.writeUnits(bytes, bytes));
        }
    }

    /** What the upkeep has cost so far, by the function whose containers paid it. */
    DynamoDbBill bill() {
        return bill;
    }
}
