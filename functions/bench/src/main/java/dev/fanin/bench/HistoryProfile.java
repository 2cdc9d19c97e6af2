package dev.fanin.bench;

import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.event.Event;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The history profile (issue 14, item 4): keys that live for days, each with a short session every 2 minutes, and the
 * cost of an event per 6-hour interval of their life. A batch must read what its events need, never the key's
 * history, so read units per event on day 7 stay within 1.2x of the first 6 hours, and so do dollars per million
 * events. Figures are counts from the metered stores (no timing); Lambda time is priced per DynamoDB call as in the
 * other profiles, with no CPU term.
 */
final class HistoryProfile {

    static final Duration INTERVAL = Duration.ofHours(6);

    private HistoryProfile() { }

    /**
     * Runs the profile for each key count and prints its table, on a deployment of the alert-storm pipeline alone (so
     * the sweeper's fixed reads, one query per due-bucket shard and minute, are those of one pipeline).
     */
    static void report(PrintStream out, FaninConfig bundled, PriceTable prices, Simulation.Mode mode, double days, long seed,
                       List<Integer> keyCounts) {
        FaninConfig config = new FaninConfig(bundled.version(), List.of(bundled.pipeline("alert-storm").orElseThrow()));
        for (int keys : keyCounts) {
            Workload workload = Workloads.history(keys, days, seed);
            Simulation.Intervals intervals = new Simulation.Intervals(INTERVAL);
            Simulation.Result run = Simulation.run(config, workload, mode, Simulation.BatchShape.DEFAULT, intervals);
            table(out, workload, intervals.snapshots, prices);
            ProfileFigures competent = baseline(out, config, workload, run.span(), prices);
            out.printf("Outcomes: %d accepted, %d duplicates, %d late, %d too late, %d failed deliveries.%n", run.accepted(), run.duplicates(),
                    run.late(), run.tooLate(), run.failedMessages());
            Report.emptyPolls(out, run.span());
            out.printf("%s%n", Report.writesByPurpose(run, run.accepted() + run.duplicates()));
            CloseLatency.Summary latency = new CloseLatency(config, BenchMain.parse(config, workload)).summarize(run.emitted());
            out.printf("Close latency p50 / p90 / p99 / max (simulated, with timers): %s over %d windows %s; %d emissions before the "
                    + "oracle's condition.%n%n", latency.percentiles(), latency.windows(), latency.byReason(), latency.negative());
            CostLines.Usage usage = CostLines.Usage.of(run, run.accepted() + run.duplicates(), latency.windows(), 0);
            CostLines faninLines = CostLines.fanin(usage, prices);
            CostLines competentLines = CostLines.baseline(competent, prices);
            CostReport.profile(out, faninLines, competentLines);
            CostReport.summary(out, List.of(workload.name()), List.of(faninLines), List.of(competentLines));
        }
    }

    private static void table(PrintStream out, Workload workload, List<Simulation.Snapshot> snapshots, PriceTable prices) {
        out.printf("## %s%n%n%s.%n%n", workload.name(), workload.summary());
        out.println("| interval | events | read units / event | write units / event | DynamoDB calls / batch | Query pages / batch "
                + "| bytes read / batch | $ / M events |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        SnapshotRow first = null;
        SnapshotRow last = null;
        for (int i = 0; i < snapshots.size(); i++) {
            SnapshotRow row = SnapshotRow.of(i == 0 ? null : snapshots.get(i - 1), snapshots.get(i), workload.arrivals().get(0).at(), prices);
            if (row.events() == 0) {
                continue;
            }
            first = first == null ? row : first;
            last = row;
            out.printf(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.2f | %.2f | %,.0f | %.2f |%n", label(i), row.events(), row.readUnitsPerEvent(),
                    row.writeUnitsPerEvent(), row.callsPerBatch(), row.queryPagesPerBatch(), row.bytesPerBatch(), row.dollarsPerMillion());
        }
        if (first != null) {
            out.printf(Locale.ROOT, "%nLast interval against the first: read units per event %.2fx, $ per million events %.2fx.%n%n",
                    last.readUnitsPerEvent() / first.readUnitsPerEvent(), last.dollarsPerMillion() / first.dollarsPerMillion());
        }
    }

    /** Prints both baselines' figures over the whole run; returns the competent design's. */
    private static ProfileFigures baseline(PrintStream out, FaninConfig config, Workload workload, Duration span, PriceTable prices) {
        List<Event> events = BenchMain.parse(config, workload);
        NaiveBaseline naive = new NaiveBaseline(BenchMain.pipelines(config));
        events.forEach(naive::accept);
        DynamoDbBill bill = naive.flushAll();
        List<List<Arrival>> arrivals = Simulation.batches(workload.arrivals(), Simulation.BatchShape.DEFAULT);
        long batches = arrivals.size();
        long sqs = SqsRequests.receiveAndDelete(arrivals) + EventSourcePolls.BASELINE.over(span);
        ProfileFigures figures = new ProfileFigures(events.size(), naive.windows(), naive.windows(), bill, batches, sqs, naive.windows(), 0, 0);
        out.printf(Locale.ROOT, "Naive baseline over the whole run (its dedupe item per event id does not grow either): %.3f read units and "
                        + "%.3f write units per event, $%.2f per million events.%n", bill.readUnits() / events.size(), figures.writeUnitsPerEvent(),
                figures.totalPerMillion(prices));
        CompetentBaseline competent = new CompetentBaseline(BenchMain.pipelines(config));
        BenchMain.parseBatches(config, workload, Simulation.BatchShape.DEFAULT).forEach(competent::acceptBatch);
        DynamoDbBill strong = competent.flushAll();
        ProfileFigures c = new ProfileFigures(events.size(), competent.windows(), competent.windows(), strong, batches, sqs,
                competent.putEventsCalls(), 0, 0);
        out.printf(Locale.ROOT, "Competent baseline over the whole run: %.3f read units and %.3f write units per event, $%.2f per million events.%n",
                strong.readUnits() / events.size(), c.writeUnitsPerEvent(), c.totalPerMillion(prices));
        return c;
    }

    private static String label(int interval) {
        long hours = INTERVAL.toHours() * interval;
        return String.format(Locale.ROOT, "day %d, %02d-%02dh", hours / 24 + 1, hours % 24, hours % 24 + INTERVAL.toHours());
    }
}
