package dev.fanin.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a run cost in DynamoDB: API calls by operation, and request units by {@link CapacityRules}, each booked on a
 * line: the {@link Purpose} its store gave it and the function that made it ({@link #function}, which the simulation
 * sets before each invocation), so that a reader can tell which guarantee each dollar buys ({@link CostLines}). Every
 * total is a sum over the lines; the due buckets' write units ({@link #dueBucketWriteUnits}) are told apart by their
 * purposes, because the services' {@code WriteUnits} metric counts window writes only. Units given with their item's
 * partition key are also summed per partition, which is what DynamoDB's per-partition limits (1,000 write and 3,000
 * read units a second) apply to.
 */
public final class DynamoDbBill {

    /** The units a run spent on one partition key. */
    public record PartitionUnits(String partition, double writeUnits, double readUnits) { }

    /** One line of the bill: what a function spent for one purpose. */
    record Line(String function, Purpose purpose) { }

    /** The function of the baselines, and of fanin's calls until the simulation names one. */
    static final String INGEST = "ingest";
    static final String TIMER = "timer";
    static final String SWEEPER = "sweeper";

    private final Map<String, double[]> byPartition = new HashMap<>();
    private long bytesRead;
    private final Map<Line, Spent> lines = new HashMap<>();
    private Line line = new Line(INGEST, Purpose.UNTAGGED);
    /** By function: milliseconds of its DynamoDB calls' wait that ran beside other calls of the same invocation. */
    private final Map<String, Double> overlapped = new TreeMap<>();

    /** Books the next calls and units on {@code function} (ingest, timer, sweeper), for the purpose last given. */
    public void function(String function) {
        line = new Line(function, line.purpose());
    }

    /** Books the next calls and units on {@code purpose}, for the function last given. */
    void purpose(Purpose purpose) {
        line = new Line(line.function(), purpose);
    }

    /**
     * Books {@code millis} of the current function's DynamoDB wait as spent beside its other calls (the sweeper's shard
     * threads): Lambda bills an invocation's wall time, so that wait is not billed twice ({@link CostLines}).
     */
    void overlap(double millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("overlapped wait must not be negative, was " + millis);
        }
        overlapped.merge(line.function(), millis, Double::sum);
    }

    /** A function's DynamoDB wait that ran beside its other calls, in milliseconds ({@link #overlap}). */
    double overlappedMillis(String function) {
        return overlapped.getOrDefault(function, 0.0);
    }

    /** Every function's DynamoDB wait that ran beside its other calls, in milliseconds. */
    double overlappedMillis() {
        return overlapped.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The function the next calls are booked on. */
    String function() {
        return line.function();
    }

    /**
     * Books one {@code operation} read of {@code function}, made for {@code from}, on {@code to} instead: for a call
     * whose purpose shows only after it (a load that a claim follows). Totals do not change.
     */
    void rebookRead(String function, Purpose from, Purpose to, String operation, double readUnits) {
        Spent source = lines.get(new Line(function, from));
        if (source == null) {
            throw new IllegalStateException("nothing booked on " + function + ": " + from.label());
        }
        source.moveRead(lines.computeIfAbsent(new Line(function, to), l -> new Spent()), operation, readUnits);
        if (source.isEmpty()) {
            lines.remove(new Line(function, from));
        }
    }

    private Spent spent() {
        return lines.computeIfAbsent(line, l -> new Spent());
    }

    public void call(String operation) {
        spent().call(operation);
    }

    public void write(double units) {
        spent().write(units);
    }

    public void write(String partition, double units) {
        write(units);
        partition(partition)[0] += units;
    }

    public void read(double units) {
        spent().read(units);
    }

    /** A read of {@code bytes} (the items returned), billed {@code units}. */
    public void read(double units, long bytes) {
        read(units);
        bytesRead += bytes;
    }

    /** A read of {@code bytes} from {@code partition}, billed {@code units}. */
    public void read(String partition, double units, long bytes) {
        read(units, bytes);
        partition(partition)[1] += units;
    }

    private double[] partition(String partition) {
        return byPartition.computeIfAbsent(partition, p -> new double[2]);
    }

    /** Bytes of the items returned by the reads that said how many. */
    public long bytesRead() {
        return bytesRead;
    }

    /** A copy of the bill as it stands (for figures per interval of a run). */
    public DynamoDbBill copy() {
        DynamoDbBill c = new DynamoDbBill();
        byPartition.forEach((key, units) -> c.byPartition.put(key, units.clone()));
        c.bytesRead = bytesRead;
        lines.forEach((l, spent) -> c.lines.put(l, spent.copy()));
        c.line = line;
        c.overlapped.putAll(overlapped);
        return c;
    }

    /** This bill and {@code other} together, as one new bill. */
    public DynamoDbBill plus(DynamoDbBill other) {
        DynamoDbBill sum = copy();
        other.byPartition.forEach((key, units) -> {
            double[] into = sum.partition(key);
            into[0] += units[0];
            into[1] += units[1];
        });
        sum.bytesRead += other.bytesRead;
        other.lines.forEach((l, spent) -> sum.lines.computeIfAbsent(l, k -> new Spent()).add(spent));
        other.overlapped.forEach((function, millis) -> sum.overlapped.merge(function, millis, Double::sum));
        return sum;
    }

    /** What was billed since {@code earlier} (a copy of this bill taken before). */
    public DynamoDbBill since(DynamoDbBill earlier) {
        DynamoDbBill d = new DynamoDbBill();
        byPartition.forEach((key, units) -> {
            double[] before = earlier.byPartition.getOrDefault(key, new double[2]);
            if (units[0] != before[0] || units[1] != before[1]) {
                d.byPartition.put(key, new double[] {units[0] - before[0], units[1] - before[1]});
            }
        });
        d.bytesRead = bytesRead - earlier.bytesRead;
        lines.forEach((l, spent) -> {
            Spent delta = spent.minus(earlier.lines.get(l));
            if (!delta.isEmpty()) {
                d.lines.put(l, delta);
            }
        });
        overlapped.forEach((function, millis) -> d.overlapped.put(function, millis - earlier.overlappedMillis(function)));
        return d;
    }

    public long calls() {
        return lines.values().stream().mapToLong(Spent::callCount).sum();
    }

    public long calls(String operation) {
        return lines.values().stream().mapToLong(spent -> spent.calls(operation)).sum();
    }

    /** Calls by operation, in name order (the report prints them: the order must not change from one JVM to the next). */
    public Map<String, Long> callsByOperation() {
        Map<String, Long> calls = new TreeMap<>();
        lines.values().forEach(spent -> spent.addCallsTo(calls));
        return Collections.unmodifiableMap(calls);
    }

    /** Read units by the operation that returned them, in name order. */
    public Map<String, Double> readUnitsByOperation() {
        Map<String, Double> units = new TreeMap<>();
        lines.values().forEach(spent -> spent.addReadsTo(units));
        units.values().removeIf(u -> u == 0);
        return Collections.unmodifiableMap(units);
    }

    /** Write units of every line booked on one of {@code purposes}. */
    public double writeUnits(Purpose... purposes) {
        Set<Purpose> wanted = Set.of(purposes);
        return lines.entrySet().stream().filter(e -> wanted.contains(e.getKey().purpose())).mapToDouble(e -> e.getValue().writeUnits()).sum();
    }

    /** The pipeline history's puts ({@link PipelineHistoryUpkeep}), outside the window writes. */
    public double historyWriteUnits() {
        return writeUnits(Purpose.HISTORY_RAN, Purpose.HISTORY_RECORD);
    }

    /** The due buckets' puts and deletes, which the services' {@code WriteUnits} metric leaves out. */
    public double dueBucketWriteUnits() {
        return writeUnits(Purpose.DUE_PUT, Purpose.DUE_DELETE);
    }

    /** Every write but the due buckets': the window items, the open-window counter, the watermark. */
    public double tableWriteUnits() {
        return writeUnits() - dueBucketWriteUnits();
    }

    public double writeUnits() {
        return lines.values().stream().mapToDouble(Spent::writeUnits).sum();
    }

    public double readUnits() {
        return lines.values().stream().mapToDouble(Spent::readUnits).sum();
    }

    /** What each line spent, by function and purpose (lines that spent nothing left out). */
    Map<Line, Spent> lines() {
        Map<Line, Spent> copy = new HashMap<>();
        lines.forEach((l, spent) -> copy.put(l, spent.copy()));
        return copy;
    }

    /** Every partition key that units were given for, the one with the most write units first. */
    public List<PartitionUnits> partitions() {
        List<PartitionUnits> all = new ArrayList<>();
        byPartition.forEach((key, units) -> all.add(new PartitionUnits(key, units[0], units[1])));
        all.sort(Comparator.comparingDouble(PartitionUnits::writeUnits).reversed().thenComparing(PartitionUnits::partition));
        return all;
    }
}
