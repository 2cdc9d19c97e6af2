package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WindowStore.DueBucket;
import dev.fanin.core.port.WindowStore.DuePage;
import dev.fanin.core.window.WindowRef;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The due buckets of a pipeline ({@link DueBucketItems}): a bucket is put once, listing windows by due time, read by
 * the sweeper shard by shard in due order with an eventually consistent {@code Query}, and deleted after its entries
 * are listed again ({@link DueBucketDeletes}). A bucket goes to the shard of its first entry, so buckets falling due
 * together spread over the shards.
 *
 * <p>Eventually consistent is enough, for half the read units: a bucket is only ever put and deleted, never changed,
 * and stays until a sweep has handled it. A page that misses a bucket put a moment ago leaves it to the next run (an
 * ingest listing falls due the ingest timeout plus 10 s after it was put); one that still shows a bucket just deleted has its entries visited
 * once more, and each visit re-reads its window strongly and decides afresh.
 */
final class DueBuckets {

    private final DynamoDbClient dynamo;
    private final String table;
    private final int shards;
    private final WriteCostListener costs;
    private final DueBucketDeletes deletes;
    private final RandomGenerator random = new SecureRandom();

    DueBuckets(DynamoDbClient dynamo, String table, int shards, WriteCostListener costs, DueBucketDeletes deletes) {
        this.dynamo = dynamo;
        this.table = table;
        this.shards = shards;
        this.costs = costs;
        this.deletes = deletes;
    }

    void add(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        if (entries.isEmpty()) {
            return;
        }
        int shard = WindowKeys.shardOf(entries.get(0), shards);
        for (List<String> chunk : DueBucketItems.chunks(entries)) {
            Map<String, AttributeValue> item = DueBucketItems.item(pipeline, shard, dueAt, chunk, expiresAt, random);
            double sizeBased = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(item));
            double reported;
            try {
                reported = DynamoDbCalls.reported(dynamo.putItem(PutItemRequest.builder()
                        .tableName(table)
                        .item(item)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build()).consumedCapacity());
            } catch (SdkException e) {
                throw DynamoDbFailures.translate("addDue", e);
            }
            costs.onWrite("addDue", reported, sizeBased);
        }
    }

    DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        QueryResponse page = DynamoDbCalls.query(dynamo, dueRequest(pipeline, shard, dueBy, limit, cursor), "due");
        List<DueBucket> buckets = new ArrayList<>();
        for (Map<String, AttributeValue> item : page.items()) {
            buckets.add(DueBucketItems.bucket(pipeline, shard, item));
        }
        return new DuePage(buckets, page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                ? DueCursor.encode(page.lastEvaluatedKey()) : null);
    }

    QueryRequest dueRequest(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        if (shard < 0 || shard >= WindowStore.MAX_DUE_SHARDS) {
            throw new IllegalArgumentException("due shard " + shard + " outside [0, " + WindowStore.MAX_DUE_SHARDS + ")");
        }
        String pk = WindowKeys.dueBucketPk(pipeline, shard);
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk AND #sk < :after")
                .expressionAttributeNames(Map.of("#pk", PK, "#sk", SK))
                .expressionAttributeValues(Map.of(":pk", s(pk), ":after", s(DueBucketItems.skBound(dueBy))))
                .consistentRead(false)
                .scanIndexForward(true)
                .limit(limit)
                .exclusiveStartKey(cursor == null ? null : DueCursor.decode(cursor, pk))
                .build();
    }

    void remove(List<DueBucket> buckets) {
        deletes.remove(buckets);
    }

    int shards() {
        return shards;
    }
}
