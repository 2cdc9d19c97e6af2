package dev.fanin.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one line of a {@link DynamoDbBill} spent: the calls by operation and the units they were billed. Mutable, for
 * the bill's own bookkeeping; {@link #copy} and {@link #minus} serve the bill's snapshots.
 */
final class Spent {

    private final Map<String, Long> calls = new TreeMap<>();
    /** Read units by the operation of the call they follow (a call's reads are billed right after it). */
    private final Map<String, Double> readsByOperation = new TreeMap<>();
    private String lastCall = "none";
    private double writeUnits;
    private double readUnits;

    void call(String operation) {
        calls.merge(operation, 1L, Long::sum);
        lastCall = operation;
    }

    void write(double units) {
        writeUnits += units;
    }

    void read(double units) {
        readUnits += units;
        readsByOperation.merge(lastCall, units, Double::sum);
    }

    void add(Spent other) {
        other.calls.forEach((op, n) -> calls.merge(op, n, Long::sum));
        other.readsByOperation.forEach((op, units) -> readsByOperation.merge(op, units, Double::sum));
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
        readsByOperation.merge(operation, -readUnits, Double::sum);
        to.call(operation);
        to.read(readUnits);
    }

    Map<String, Long> calls() {
        return Map.copyOf(calls);
    }

    long calls(String operation) {
        return calls.getOrDefault(operation, 0L);
    }

    /** Adds this line's read units, by the operation that returned them, to {@code into}. */
    void addReadsTo(Map<String, Double> into) {
        readsByOperation.forEach((op, units) -> into.merge(op, units, Double::sum));
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
        c.readsByOperation.putAll(readsByOperation);
        c.lastCall = lastCall;
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
            earlier.readsByOperation.forEach((op, units) -> d.readsByOperation.merge(op, -units, Double::sum));
            d.readsByOperation.values().removeIf(units -> units == 0);
            d.writeUnits -= earlier.writeUnits;
            d.readUnits -= earlier.readUnits;
        }
        return d;
    }
}
