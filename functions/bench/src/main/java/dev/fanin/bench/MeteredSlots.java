package dev.fanin.bench;

import dev.fanin.aws.dynamodb.WindowKeys;
import dev.fanin.core.memory.InMemoryWindowStore;

/**
 * The open-window counter of {@link MeteredWindowStore}, billed as the adapter's {@code OpenWindowSlots} updates and
 * reads its one item per pipeline: an {@code UpdateItem} per reservation, release and epoch retired, a
 * {@code GetItem} per count (strongly consistent only after a reservation that did not fit).
 */
final class MeteredSlots {

    private final InMemoryWindowStore delegate;
    private final DynamoDbBill bill;

    MeteredSlots(InMemoryWindowStore delegate, DynamoDbBill bill) {
        this.delegate = delegate;
        this.bill = bill;
    }

    long open(String pipeline) {
        billRead(pipeline, false);
        return delegate.openWindows(pipeline);
    }

    /** One conditional update; when not all of it fits, a strong read and one more update for what is left, if any. */
    int reserve(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        int ask = Math.min(wanted, maxOpenWindows);
        long free = maxOpenWindows - delegate.openWindows(pipeline);
        billWrite(pipeline);
        if (free < ask) {
            billRead(pipeline, true);
            if (free > 0) {
                billWrite(pipeline);
            }
        }
        return delegate.reserveSlots(pipeline, epoch, ask, maxOpenWindows);
    }

    void release(String pipeline, long epoch, int count) {
        if (count < 1) {
            return;
        }
        billWrite(pipeline);
        delegate.releaseSlots(pipeline, epoch, count);
    }

    /** An eventually consistent read of the item, one update per epoch retired. */
    long retire(String pipeline, long before) {
        billRead(pipeline, false);
        for (Long epoch : delegate.slotsByEpoch(pipeline).keySet()) {
            if (epoch < before) {
                billWrite(pipeline);
            }
        }
        return delegate.retireEpochs(pipeline, before);
    }

    private void billRead(String pipeline, boolean consistent) {
        bill.purpose(Purpose.COUNTER_READ);
        bill.call(MeteredWindowStore.GET);
        bill.read(WindowKeys.counterPk(pipeline), consistent ? CapacityRules.strongReadUnits(0) : CapacityRules.eventualReadUnits(0), 0);
    }

    private void billWrite(String pipeline) {
        bill.purpose(Purpose.COUNTER_WRITE);
        bill.call(MeteredWindowStore.UPDATE);
        bill.write(WindowKeys.counterPk(pipeline), CapacityRules.writeUnits(0, 0));
    }
}
