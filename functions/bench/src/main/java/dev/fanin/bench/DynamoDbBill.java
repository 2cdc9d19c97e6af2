package dev.fanin.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a run cost in DynamoDB: API calls by operation, and request units by {@link CapacityRules}. The due buckets'
 * write units are kept apart from the other table writes because the services' {@code WriteUnits} metric counts
 * window writes only.
 */
public final class DynamoDbBill {

    private final Map<String, Long> calls = new TreeMap<>();
    private double tableWriteUnits;
    private double dueBucketWriteUnits;
    private double readUnits;

    public void call(String operation) {
        calls.merge(operation, 1L, Long::sum);
    }

    public void write(double units) {
        tableWriteUnits += units;
    }

    public void dueBucketWrite(double units) {
        dueBucketWriteUnits += units;
    }

    public void read(double units) {
        readUnits += units;
    }

    public long calls() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    public long calls(String operation) {
        return calls.getOrDefault(operation, 0L);
    }

    public Map<String, Long> callsByOperation() {
        return Map.copyOf(calls);
    }

    public double tableWriteUnits() {
        return tableWriteUnits;
    }

    public double dueBucketWriteUnits() {
        return dueBucketWriteUnits;
    }

    public double writeUnits() {
        return tableWriteUnits + dueBucketWriteUnits;
    }

    public double readUnits() {
        return readUnits;
    }
}
