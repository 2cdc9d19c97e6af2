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
    private long bytesRead;

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

    /** A read of {@code bytes} (the items returned), billed {@code units}. */
    public void read(double units, long bytes) {
        readUnits += units;
        bytesRead += bytes;
    }

    /** Bytes of the items returned by the reads that said how many. */
    public long bytesRead() {
        return bytesRead;
    }

    /** A copy of the bill as it stands (for figures per interval of a run). */
    public DynamoDbBill copy() {
        DynamoDbBill c = new DynamoDbBill();
        c.calls.putAll(calls);
        c.tableWriteUnits = tableWriteUnits;
        c.dueBucketWriteUnits = dueBucketWriteUnits;
        c.readUnits = readUnits;
        c.bytesRead = bytesRead;
        return c;
    }

    /** What was billed since {@code earlier} (a copy of this bill taken before). */
    public DynamoDbBill since(DynamoDbBill earlier) {
        DynamoDbBill d = new DynamoDbBill();
        calls.forEach((op, n) -> {
            long delta = n - earlier.calls(op);
            if (delta != 0) {
                d.calls.put(op, delta);
            }
        });
        d.tableWriteUnits = tableWriteUnits - earlier.tableWriteUnits;
        d.dueBucketWriteUnits = dueBucketWriteUnits - earlier.dueBucketWriteUnits;
        d.readUnits = readUnits - earlier.readUnits;
        d.bytesRead = bytesRead - earlier.bytesRead;
        return d;
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
