package dev.fanin.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one Lambda function's invocations asked of DynamoDB, EventBridge and SQS in a run: the bill split by function.
 * A throughput figure needs the split, since the ingest function's waits bound how fast one invocation takes a batch
 * and the timer and sweeper functions' waits do not. The metered stores bill one {@code Query} per page, so the
 * pages are the {@code Query} and {@code Scan} calls.
 *
 * @param invocations   invocations of the function
 * @param messages      SQS messages the invocations were handed (input messages, or timer messages; 0 for sweeps)
 * @param dynamoDbCalls DynamoDB calls by operation
 * @param readUnits     read units the calls returned
 * @param writeUnits    write units the calls spent
 * @param putEvents     EventBridge PutEvents calls
 * @param sqsSends      SQS send calls (timers, side output)
 */
record FunctionLoad(long invocations, long messages, Map<String, Long> dynamoDbCalls, double readUnits, double writeUnits, long putEvents,
                    long sqsSends) {

    static final FunctionLoad NONE = new FunctionLoad(0, 0, Map.of(), 0, 0, 0, 0);

    FunctionLoad {
        dynamoDbCalls = Map.copyOf(dynamoDbCalls);
    }

    /** The running totals of a run so far, as a load of no invocation (subtract two with {@link #since}). */
    static FunctionLoad reading(DynamoDbBill bill, long putEvents, long sqsSends) {
        return new FunctionLoad(0, 0, bill.callsByOperation(), bill.readUnits(), bill.writeUnits(), putEvents, sqsSends);
    }

    /** One invocation handed {@code messages}: what was added to the totals between {@code before} and this reading. */
    FunctionLoad since(FunctionLoad before, long messages) {
        Map<String, Long> calls = new HashMap<>(dynamoDbCalls);
        before.dynamoDbCalls.forEach((operation, n) -> calls.merge(operation, -n, Long::sum));
        calls.values().removeIf(n -> n == 0);
        return new FunctionLoad(1, messages, calls, readUnits - before.readUnits, writeUnits - before.writeUnits,
                putEvents - before.putEvents, sqsSends - before.sqsSends);
    }

    FunctionLoad plus(FunctionLoad other) {
        Map<String, Long> calls = new TreeMap<>(dynamoDbCalls);
        other.dynamoDbCalls.forEach((operation, n) -> calls.merge(operation, n, Long::sum));
        return new FunctionLoad(invocations + other.invocations, messages + other.messages, calls, readUnits + other.readUnits,
                writeUnits + other.writeUnits, putEvents + other.putEvents, sqsSends + other.sqsSends);
    }

    long calls() {
        return dynamoDbCalls.values().stream().mapToLong(Long::longValue).sum();
    }

    long pages() {
        return dynamoDbCalls.getOrDefault("Query", 0L) + dynamoDbCalls.getOrDefault("Scan", 0L);
    }

    /** The time the invocations waited on their calls, priced by {@code waits}. */
    double waitMillis(PriceTable.CallMillis waits) {
        return waits.of(dynamoDbCalls, readUnits, putEvents, sqsSends);
    }

    double millisPerInvocation(PriceTable.CallMillis waits) {
        return invocations == 0 ? 0 : waitMillis(waits) / invocations;
    }

    double messagesPerInvocation() {
        return invocations == 0 ? 0 : (double) messages / invocations;
    }
}
