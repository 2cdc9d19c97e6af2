package dev.fanin.bench;

/**
 * The per-profile figures of one side (fanin or the baseline), all derived from counts: nothing here is timed
 * except {@code cpuMicrosPerEvent}, which only enters the Lambda duration estimate.
 *
 * @param events          input events (duplicates included)
 * @param windows         windows fired (first revisions)
 * @param emitted         aggregate events sent (corrections included)
 * @param bill            DynamoDB calls and units
 * @param invocations     Lambda invocations (ingest batches, timer batches, sweeps)
 * @param sqsRequests     SQS requests by {@link SqsRequests} (input: each batch's receives and deletes; timers: sends, and each
 *                        timer batch's receives and deletes; side-output sends; each event source mapping's empty long polls,
 *                        {@link EventSourcePolls})
 * @param emitCalls       PutEvents calls the functions make (each waited on)
 * @param sqsSends        SQS send calls the functions make (timers, side output; each waited on)
 * @param cpuMicrosPerEvent measured CPU per event used for the Lambda duration estimate
 */
record ProfileFigures(long events, long windows, long emitted, DynamoDbBill bill, long invocations, long sqsRequests, long emitCalls,
                      long sqsSends, double cpuMicrosPerEvent) {

    double callsPerEvent() {
        return (double) bill.calls() / events;
    }

    double writeUnitsPerEvent() {
        return bill.writeUnits() / events;
    }

    double writeUnitsPerWindow() {
        return windows == 0 ? 0 : bill.writeUnits() / windows;
    }

    double readUnitsPerWindow() {
        return windows == 0 ? 0 : bill.readUnits() / windows;
    }

    double emittedPerWindow() {
        return windows == 0 ? 0 : (double) emitted / windows;
    }

    double dynamoDbPerMillion(PriceTable prices) {
        return (bill.writeUnits() * prices.perMillionWriteUnits() + bill.readUnits() * prices.perMillionReadUnits()) / events;
    }

    double lambdaPerMillion(PriceTable prices) {
        double seconds = cpuMicrosPerEvent * events / 1e6 + waitMillis(prices.waits()) / 1e3;
        double dollars = seconds * prices.lambdaMemoryGb() * prices.perGbSecond() + invocations * prices.perMillionInvocations() / 1e6;
        return dollars / events * 1e6;
    }

    /**
     * The time the functions wait on the calls they make, by {@link PriceTable.CallMillis}, less what the sweeper's
     * shard threads waited on at once ({@link DynamoDbBill#overlap}): what Lambda bills.
     */
    double waitMillis(PriceTable.CallMillis waits) {
        return waits.of(bill.callsByOperation(), bill.readUnits(), emitCalls, sqsSends) - bill.overlappedMillis();
    }

    double sqsPerMillion(PriceTable prices) {
        return sqsRequests * prices.perMillionSqsRequests() / events;
    }

    double eventBridgePerMillion(PriceTable prices) {
        return emitted * prices.perMillionEvents() / events;
    }

    double totalPerMillion(PriceTable prices) {
        return dynamoDbPerMillion(prices) + lambdaPerMillion(prices) + sqsPerMillion(prices) + eventBridgePerMillion(prices);
    }
}
