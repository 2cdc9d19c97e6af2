package dev.fanin.bench;

/**
 * What was billed between two snapshots of a run ({@link Simulation.Intervals}): the rows of the history, grow and
 * sustained hot-key tables. Lambda time is priced per DynamoDB call and read unit, with no CPU term. Units, calls and
 * bytes are the window table's ({@code bill}); the dollars also hold the pipeline history's upkeep
 * ({@link PipelineHistoryUpkeep}), which every container pays whatever the windows do.
 *
 * @param seconds simulated time between the snapshots
 */
record SnapshotRow(long events, long batches, double seconds, DynamoDbBill bill, ProfileFigures figures, PriceTable prices) {

    /** @param before the previous snapshot, or null for the first row */
    static SnapshotRow of(Simulation.Snapshot before, Simulation.Snapshot after, java.time.Instant start, PriceTable prices) {
        long events = after.events() - (before == null ? 0 : before.events());
        long batches = after.batches() - (before == null ? 0 : before.batches());
        DynamoDbBill bill = before == null ? after.bill() : after.bill().since(before.bill());
        DynamoDbBill upkeep = before == null ? after.upkeep() : after.upkeep().since(before.upkeep());
        long invocations = after.invocations() - (before == null ? 0 : before.invocations());
        long sqs = after.sqsRequests() - (before == null ? 0 : before.sqsRequests());
        long emitted = after.emitted() - (before == null ? 0 : before.emitted());
        long sqsSends = after.sqsSends() - (before == null ? 0 : before.sqsSends());
        long emitCalls = after.emitCalls() - (before == null ? 0 : before.emitCalls());
        double seconds = java.time.Duration.between(before == null ? start : before.end(), after.end()).toMillis() / 1_000.0;
        return new SnapshotRow(events, batches, seconds, bill, new ProfileFigures(Math.max(1, events), emitted, emitted, bill.plus(upkeep),
                invocations, sqs, emitCalls, sqsSends, 0), prices);
    }

    double readUnitsPerEvent() {
        return bill.readUnits() / Math.max(1, events);
    }

    double writeUnitsPerEvent() {
        return bill.writeUnits() / Math.max(1, events);
    }

    double readUnitsPerBatch() {
        return bill.readUnits() / Math.max(1, batches);
    }

    double callsPerBatch() {
        return (double) bill.calls() / Math.max(1, batches);
    }

    double queryPagesPerBatch() {
        return (double) bill.calls("Query") / Math.max(1, batches);
    }

    double bytesPerBatch() {
        return (double) bill.bytesRead() / Math.max(1, batches);
    }

    double dollarsPerMillion() {
        return figures.totalPerMillion(prices);
    }
}
