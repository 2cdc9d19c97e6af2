package dev.fanin.lambda;

import dev.fanin.aws.dynamodb.WriteCostListener;

/**
 * Adds up the size-based write units of the window store's writes during one invocation (reset at its start). The
 * size-based figure is DynamoDB's billing rule applied to the items written, the same figure the benchmark reports;
 * the reported {@code ConsumedCapacity} is ignored because local backends report fixed numbers.
 *
 * <p>One Lambda container handles one invocation at a time; the methods are synchronized only so that a stray
 * concurrent use cannot lose an addition.
 */
final class WriteCostMeter implements WriteCostListener {

    private double sizeBasedUnits;
    private int writes;

    @Override
    public synchronized void onWrite(String operation, double reportedUnits, double sizeBasedUnits) {
        this.sizeBasedUnits += sizeBasedUnits;
        this.writes++;
    }

    synchronized void reset() {
        sizeBasedUnits = 0;
        writes = 0;
    }

    synchronized double sizeBasedUnits() {
        return sizeBasedUnits;
    }

    synchronized int writes() {
        return writes;
    }
}
