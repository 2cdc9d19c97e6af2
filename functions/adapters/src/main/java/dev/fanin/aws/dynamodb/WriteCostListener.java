package dev.fanin.aws.dynamodb;

/**
 * Hears the cost of every write the window store makes, with both figures: what the backend reported
 * ({@code ReturnConsumedCapacity.TOTAL}; 0 when it reported nothing) and the size-based figure from
 * {@link DynamoDbItemSize} (transactional writes counted twice, as DynamoDB bills them). On AWS the two agree; on
 * local backends only the size-based one means anything, which is why the functions report it as their metric.
 */
@FunctionalInterface
public interface WriteCostListener {

    /**
     * @param operation {@code create}, {@code replace}, {@code replaceAll}, {@code spill}, the open-window counter's
     *                  {@code reserveSlots}, {@code releaseSlots} and {@code retireEpochs}, or the due buckets'
     *                  {@code addDue} and {@code removeDue}
     */
    void onWrite(String operation, double reportedUnits, double sizeBasedUnits);

    WriteCostListener NONE = (operation, reportedUnits, sizeBasedUnits) -> { };
}
