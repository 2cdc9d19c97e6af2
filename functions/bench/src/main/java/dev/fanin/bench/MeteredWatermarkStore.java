package dev.fanin.bench;

import dev.fanin.aws.dynamodb.DynamoDbWatermarkStore;
import dev.fanin.aws.dynamodb.WindowKeys;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.watermark.Backlog;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link WatermarkStore} in memory billed as {@link DynamoDbWatermarkStore} calls DynamoDB with one writer: a
 * read is one strongly consistent Query over the pipeline's shard items (a few dozen bytes each, so 1 read unit);
 * an advance is one conditional UpdateItem (1 write unit: the item is far below 1 KB), skipped, as the adapter
 * skips it, when neither value moved by the granularity since this writer's last write. The skip is applied to the
 * values too, so the core sees the same lagging watermark it sees in production.
 */
public final class MeteredWatermarkStore implements WatermarkStore {

    private final InMemoryWatermarkStore delegate = new InMemoryWatermarkStore();
    private final DynamoDbWatermarkStore.Settings settings;
    private final DynamoDbBill bill;
    private final Map<String, Reading> written = new HashMap<>();
    private final Map<String, Backlog> backlogWritten = new HashMap<>();

    public MeteredWatermarkStore(DynamoDbWatermarkStore.Settings settings, DynamoDbBill bill) {
        this.settings = settings;
        this.bill = bill;
    }

    @Override
    public Reading read(String pipeline) {
        bill.purpose(Purpose.WATERMARK_READ);
        bill.call("Query");
        bill.read(WindowKeys.watermarkPk(pipeline), CapacityRules.strongReadUnits(0), 0);
        return delegate.read(pipeline);
    }

    @Override
    public void advance(String pipeline, Instant maxEventTime, Instant lastArrival) {
        Reading before = written.get(pipeline);
        long granularity = settings.granularity().toMillis();
        if (before != null && maxEventTime.toEpochMilli() < before.maxEventTime().toEpochMilli() + granularity
                && lastArrival.toEpochMilli() < before.lastArrival().toEpochMilli() + granularity) {
            return;
        }
        bill.purpose(Purpose.WATERMARK_WRITE);
        bill.call("UpdateItem");
        bill.write(WindowKeys.watermarkPk(pipeline), CapacityRules.writeUnits(0, 0));
        delegate.advance(pipeline, maxEventTime, lastArrival);
        written.put(pipeline, delegate.read(pipeline));
    }

    /** Backlog evidence: one conditional UpdateItem per batch that was behind, skipped as the adapter skips it. */
    @Override
    public void recordBacklog(String pipeline, Backlog backlog, Duration idleAfter) {
        Backlog before = backlogWritten.get(pipeline);
        if (settings.covers(before, backlog, idleAfter)) {
            return;
        }
        backlogWritten.put(pipeline, before == null ? backlog : Backlog.joined(before, backlog, idleAfter));
        bill.purpose(Purpose.WATERMARK_WRITE);
        bill.call("UpdateItem");
        bill.write(WindowKeys.watermarkPk(pipeline), CapacityRules.writeUnits(0, 0));
        delegate.recordBacklog(pipeline, backlog, idleAfter);
    }
}
