package dev.fanin.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a run cost in DynamoDB: API calls by operation, and request units by {@link CapacityRules}. Table and
 * index write units are kept apart because the functions' {@code WriteUnits} metric (the adapter's size-based
 * figure) counts table writes only.
 */
public final class DynamoDbBill {

    private final Map<String, Long> calls = new TreeMap<>();
    private double tableWriteUnits;
    private double indexWriteUnits;
    private double readUnits;

    public void call(String operation) {
        calls.merge(operation, 1L, Long::sum);
    }

    public void write(double units) {
        tableWriteUnits += units;
    }

    public void indexWrite(double units) {
        indexWriteUnits += units;
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

    public double indexWriteUnits() {
        return indexWriteUnits;
    }

    public double writeUnits() {
        return tableWriteUnits + indexWriteUnits;
    }

    public double readUnits() {
        return readUnits;
    }
}
