package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.aws.Batches;
import dev.fanin.aws.PartialBatchRetry;
import dev.fanin.aws.PartialBatchRetry.EntryOutcome;
import dev.fanin.aws.RetryPolicy;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WindowStore.DueBucket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Deletes swept due buckets with {@code BatchWriteItem}, 25 a call. DynamoDB may leave part of a call unprocessed
 * (throttled partitions) without failing it, so the unprocessed deletes are sent again per the retry policy, with its
 * backoff; deletes still left then fail the call (the next sweep lists and deletes them).
 */
final class DueBucketDeletes {

    private final DynamoDbClient dynamo;
    private final String table;
    private final WriteCostListener costs;
    private final RetryPolicy retry;

    DueBucketDeletes(DynamoDbClient dynamo, String table, WriteCostListener costs, RetryPolicy retry) {
        this.dynamo = dynamo;
        this.table = table;
        this.costs = costs;
        this.retry = retry;
    }

    void remove(List<DueBucket> buckets) {
        List<WriteRequest> deletes = new ArrayList<>();
        double[] units = new double[buckets.size()];
        for (int i = 0; i < buckets.size(); i++) {
            DueBucket bucket = buckets.get(i);
            // A delete is billed by the size of the item deleted.
            units[i] = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(DueBucketItems.itemOf(bucket)));
            deletes.add(WriteRequest.builder().deleteRequest(DeleteRequest.builder()
                    .key(Map.of(PK, s(WindowKeys.dueBucketPk(bucket.pipeline(), bucket.shard())), SK, s(bucket.id())))
                    .build()).build());
        }
        EntryOutcome[] outcomes = PartialBatchRetry.outcomes(deletes.size(), Map.of(),
                pending -> Batches.of(pending, DynamoDbWindowStore.MAX_BATCH_WRITE, Long.MAX_VALUE, i -> 0), batch -> send(batch, deletes, units), retry);
        long left = Arrays.stream(outcomes).filter(o -> !o.sent()).count();
        if (left > 0) {
            throw new StoreUnavailableException("removeDue: " + left + " deletes left unprocessed after " + retry.maxAttempts() + " calls", null);
        }
    }

    private List<EntryOutcome> send(List<Integer> batch, List<WriteRequest> deletes, double[] units) {
        BatchWriteItemResponse response;
        try {
            response = dynamo.batchWriteItem(BatchWriteItemRequest.builder()
                    .requestItems(Map.of(table, batch.stream().map(deletes::get).toList()))
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                    .build());
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("removeDue", e);
        }
        Set<Map<String, AttributeValue>> unprocessed = new HashSet<>();
        if (response.hasUnprocessedItems()) {
            response.unprocessedItems().getOrDefault(table, List.of()).forEach(w -> unprocessed.add(w.deleteRequest().key()));
        }
        List<EntryOutcome> outcomes = new ArrayList<>();
        double sizeBased = 0;
        for (int i : batch) {
            boolean done = !unprocessed.contains(deletes.get(i).deleteRequest().key());
            outcomes.add(done ? EntryOutcome.SENT : EntryOutcome.failed("unprocessed", true));
            sizeBased += done ? units[i] : 0;
        }
        double reported = response.hasConsumedCapacity() ? DynamoDbCalls.reported(response.consumedCapacity()) : 0;
        costs.onWrite("removeDue", reported, sizeBased);
        return outcomes;
    }
}
