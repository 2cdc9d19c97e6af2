package dev.fanin.bench;

import dev.fanin.aws.dynamodb.DueBucketItems;
import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.dynamodb.WindowKeys;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.port.WindowStore.DueBucket;
import dev.fanin.core.port.WindowStore.DuePage;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The due buckets of {@link MeteredWindowStore}, billed as the adapter's {@code DueBuckets} writes and reads them: a
 * {@code PutItem} per bucket item ({@link DueBucketItems}, sized exactly as the adapter builds it), an eventually
 * consistent {@code Query} per page, a {@code BatchWriteItem} per 25 deletes, each delete by the size of its item.
 * Their purposes keep their write units apart from the table's window writes ({@link DynamoDbBill#dueBucketWriteUnits()}),
 * as the services' {@code WriteUnits} metric leaves them out.
 */
final class MeteredDueBuckets {

    private final InMemoryWindowStore delegate;
    private final DynamoDbBill bill;
    private final int shards;
    private final RandomGenerator random = new SplittableRandom(1);

    MeteredDueBuckets(InMemoryWindowStore delegate, DynamoDbBill bill, int shards) {
        this.delegate = delegate;
        this.bill = bill;
        this.shards = shards;
    }

    void add(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        if (entries.isEmpty()) {
            return;
        }
        int shard = WindowKeys.shardOf(entries.get(0), shards);
        bill.purpose(Purpose.DUE_PUT);
        for (List<String> chunk : DueBucketItems.chunks(entries)) {
            bill.call(MeteredWindowStore.PUT);
            bill.write(WindowKeys.dueBucketPk(pipeline, shard),
                    CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(DueBucketItems.item(pipeline, shard, dueAt, chunk, expiresAt, random))));
        }
        delegate.addDue(pipeline, dueAt, entries, expiresAt);
    }

    DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        DuePage page = delegate.due(pipeline, shard, dueBy, limit, cursor);
        bill.purpose(Purpose.DUE_QUERY);
        bill.call(MeteredWindowStore.QUERY);
        long bytes = 0;
        for (DueBucket bucket : page.buckets()) {
            bytes += DynamoDbItemSize.bytes(DueBucketItems.itemOf(bucket));
        }
        bill.read(WindowKeys.dueBucketPk(pipeline, shard), CapacityRules.eventualReadUnits(bytes), bytes);
        return page;
    }

    void remove(List<DueBucket> buckets) {
        bill.purpose(Purpose.DUE_DELETE);
        for (int from = 0; from < buckets.size(); from += DynamoDbWindowStore.MAX_BATCH_WRITE) {
            bill.call(MeteredWindowStore.BATCH_WRITE);
        }
        for (DueBucket bucket : buckets) {
            bill.write(WindowKeys.dueBucketPk(bucket.pipeline(), bucket.shard()),
                    CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(DueBucketItems.itemOf(bucket))));
        }
        delegate.removeDue(buckets);
    }
}
