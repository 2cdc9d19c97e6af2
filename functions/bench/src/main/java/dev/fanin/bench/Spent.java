package dev.fanin.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one line of a {@link DynamoDbBill} spent: the calls by operation and the units they were billed. Mutable, for
 * the bill's own bookkeeping; {@link #copy} and {@link #minus} serve the bill's snapshots.
 */
final class Spent {

    private final Map<String, Long> calls = new TreeMap<>();
    private double writeUnits;
    private double readUnits;

    void call(String operation) {
        calls.merge(operation, 1L, Long::sum);
    }

    void write(double units) {
        writeUnits += units;
    }

    void read(double units) {
        readUnits += units;
    }

    void add(Spent other) {
        other.calls.forEach((op, n) -> calls.merge(op, n, Long::sum));
        writeUnits += other.writeUnits;
        readUnits += other.readUnits;
    }

    /** Moves one {@code operation} call and the {@code readUnits} it was billed from this line to {@code to}. */
    void moveRead(Spent to, String operation, double readUnits) {
        if (calls.getOrDefault(operation, 0L) < 1 || this.readUnits < readUnits) {
            throw new IllegalStateException("no " + operation + " of " + readUnits + " read units on this line to move");
        }
        calls.merge(operation, -1L, Long::sum);
        calls.values().removeIf(n -> n == 0);
        this.readUnits -= readUnits;
        to.call(operation);
        to.read(readUnits);
    }

    Map<String, Long> calls() {
        return Map.copyOf(calls);
    }

    long calls(String operation) {
        return calls.getOrDefault(operation, 0L);
    }

    /** Adds this line's calls, by operation, to {@code into}. */
    void addCallsTo(Map<String, Long> into) {
        calls.forEach((op, n) -> into.merge(op, n, Long::sum));
    }

    long callCount() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    double writeUnits() {
        return writeUnits;
    }

    double readUnits() {
        return readUnits;
    }

    boolean isEmpty() {
        return calls.isEmpty() && writeUnits == 0 && readUnits == 0;
    }

    Spent copy() {
        Spent c = new Spent();
        c.calls.putAll(calls);
        c.writeUnits = writeUnits;
        c.readUnits = readUnits;
        return c;
    }

    /** What this line spent beyond {@code earlier} (the same line in an earlier copy of the bill, or null). */
    Spent minus(Spent earlier) {
        Spent d = copy();
        if (earlier != null) {
            earlier.calls.forEach((op, n) -> d.calls.merge(op, -n, Long::sum));
            d.calls.values().removeIf(n -> n == 0);
            d.writeUnits -= earlier.writeUnits;
            d.readUnits -= earlier.readUnits;
        }
        return d;
    }
}
