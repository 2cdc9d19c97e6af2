package dev.fanin.bench;

import dev.fanin.aws.dynamodb.WindowKeys;
import dev.fanin.core.config.FaninConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The hot key sustained (issue 14, item 4): one key at 5,000 events/s for 15 simulated minutes into 10-second
 * tumbling windows ({@code hot-rollup}, so every window grows to 50,000 events), and what that key's partition takes
 * a second, by the bench's capacity rules, against DynamoDB's 1,000 write and 3,000 read units a second per
 * partition. Per minute: the mean units a second on the key's partition and the busiest second's.
 */
final class SustainedHotKey {

    static final int PER_SECOND = 5_000;
    static final String PIPELINE = "hot-rollup";
    /**
     * Five ingest containers: 50 batches a second of about 28 ms each keep 1.4 invocations busy (Little's law; about
     * 2.6 before bounded loads), and an event source mapping starts with five pollers; timers, one a window, need one.
     */
    static final Simulation.Containers CONTAINERS = new Simulation.Containers(5, 1);

    private SustainedHotKey() { }

    static void report(PrintStream out, PriceTable prices, Simulation.BatchShape shape, Simulation.Mode mode, Throughput.Limits limits,
                       double minutes) {
        FaninConfig config = BenchPipelines.grow(PIPELINE);
        int events = (int) Math.round(minutes * 60 * PER_SECOND);
        Workload workload = Workloads.oneSensor(Workloads.HOT_KEY_SUSTAINED, "hot.reading", events, PER_SECOND);
        Simulation.Intervals seconds = new Simulation.Intervals(Duration.ofSeconds(1));
        Simulation.Result run = Simulation.run(config, workload, mode, shape, CONTAINERS, seconds);
        String partition = WindowKeys.windowPk(PIPELINE, "sensor-1");
        out.printf(Locale.ROOT, "## %s%n%n%s into 10-second tumbling windows (%s), batches of up to %d within %d ms; units a second "
                        + "on the key's partition `%s`, by the bench's capacity rules.%n%n", workload.name(), workload.summary(), PIPELINE,
                shape.size(), shape.window().toMillis(), partition);
        out.println("| minute | events / s | write units / s (mean, busiest second) | read units / s (mean, busiest second) "
                + "| DynamoDB calls / batch | read units / batch | $ / M events |");
        out.println("|---|---:|---:|---:|---:|---:|---:|");
        List<Simulation.Snapshot> s = seconds.snapshots;
        double peakWrites = 0;
        double peakReads = 0;
        for (int from = 0; from < s.size(); from += 60) {
            int to = Math.min(s.size(), from + 60) - 1;
            SnapshotRow minute = SnapshotRow.of(from == 0 ? null : s.get(from - 1), s.get(to), workload.arrivals().get(0).at(), prices);
            if (minute.events() == 0) {
                continue;
            }
            double busiestWrites = 0;
            double busiestReads = 0;
            for (int i = from; i <= to; i++) {
                DynamoDbBill second = i == 0 ? s.get(0).bill() : s.get(i).bill().since(s.get(i - 1).bill());
                busiestWrites = Math.max(busiestWrites, units(second, partition, true));
                busiestReads = Math.max(busiestReads, units(second, partition, false));
            }
            peakWrites = Math.max(peakWrites, busiestWrites);
            peakReads = Math.max(peakReads, busiestReads);
            out.printf(Locale.ROOT, "| %d | %,.0f | %,.0f, %,.0f | %,.0f, %,.0f | %.2f | %.2f | %.2f |%n", from / 60 + 1, minute.events() / minute.seconds(),
                    units(minute.bill(), partition, true) / minute.seconds(), busiestWrites, units(minute.bill(), partition, false) / minute.seconds(),
                    busiestReads, minute.callsPerBatch(), minute.readUnitsPerBatch(), minute.dollarsPerMillion());
        }
        Throughput.Result throughput = Throughput.of(run.ingestLoad(), run.bill().partitions(), prices.waits(), limits);
        out.printf(Locale.ROOT, "%nBusiest second on the key's partition: %,.0f write units (limit %,.0f) and %,.0f read units (limit %,.0f). "
                        + "Outcomes: %d accepted, %d duplicates, %d failed deliveries, %d windows emitted. One ingest invocation of %.1f "
                        + "messages waits %.1f ms on its calls: 5,000 events/s take %d concurrent invocations.%n%n",
                peakWrites, limits.partitionWriteUnits(), peakReads, limits.partitionReadUnits(), run.accepted(), run.duplicates(),
                run.failedMessages(), run.emitted().size(), throughput.messagesPerInvocation(), throughput.millisPerInvocation(),
                throughput.concurrencyFor(PER_SECOND));
    }

    private static double units(DynamoDbBill bill, String partition, boolean writes) {
        return bill.partitions().stream().filter(p -> p.partition().equals(partition))
                .mapToDouble(p -> writes ? p.writeUnits() : p.readUnits()).sum();
    }
}
