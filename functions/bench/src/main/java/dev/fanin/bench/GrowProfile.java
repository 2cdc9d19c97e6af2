package dev.fanin.bench;

import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.event.Event;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The grow profile (issue 14, item 4): one window, a tumbling one ({@code grow-rollup}) and a session
 * ({@code grow-session}), each growing to 50,000 events of one sensor at 250 events/s, with the figures of each size
 * step (the batches that took it from the previous step to this one). A load must read what its events need, never
 * what the window already holds, so read units per batch at 50,000 events should stay within 1.5x of at 1,000. The
 * naive and competent baselines take the same batches; the competent design's window item grows 16 bytes an event and
 * fails in AWS once it passes 400 KB.
 */
final class GrowProfile {

    static final List<Long> STEPS = List.of(1_000L, 5_000L, 10_000L, 25_000L, 50_000L);
    static final int EVENTS = 50_000;
    static final int PER_SECOND = 250;
    /** DynamoDB's item size limit. */
    static final long ITEM_LIMIT = 400 * 1024;

    /** A window kind of the profile: its pipeline and the event type that pipeline matches. */
    record Kind(String pipeline, String type) { }

    static final List<Kind> KINDS = List.of(new Kind("grow-rollup", "grow.tumbling"), new Kind("grow-session", "grow.session"));

    private GrowProfile() { }

    static void report(PrintStream out, PriceTable prices, Simulation.BatchShape shape, Simulation.Mode mode) {
        for (Kind kind : KINDS) {
            FaninConfig config = BenchPipelines.grow(kind.pipeline());
            Workload workload = Workloads.oneSensor("grow (" + kind.pipeline() + ")", kind.type(), EVENTS, PER_SECOND);
            Simulation.Intervals steps = Simulation.Intervals.atEvents(STEPS);
            Simulation.Result run = Simulation.run(config, workload, mode, shape, Simulation.Containers.DEFAULT, steps);
            Baselines baselines = baselines(config, workload, shape, prices);
            table(out, workload, steps.snapshots, prices, baselines.steps());
            out.printf(Locale.ROOT, "The competent design's window item passes DynamoDB's 400 KB at event %s; the naive design's at event %s.%n",
                    passed(baselines.competentFailsAt()), passed(baselines.naiveFailsAt()));
            out.printf("Outcomes: %d accepted, %d duplicates, %d failed deliveries; windows emitted: %d.%n", run.accepted(), run.duplicates(),
                    run.failedMessages(), run.emitted().size());
            Throughput.Result pace = Throughput.of(run.ingestLoad(), run.bill().partitions(), prices.waits(), Throughput.Limits.aws(1, shape.window()));
            out.printf(Locale.ROOT, "Containers: one ingest and one timer container (Little's law: %.1f batches a second of %.1f ms each keep "
                    + "%.2f invocations busy on average).%n", (double) run.batches() * PER_SECOND / EVENTS,
                    pace.millisPerInvocation(), run.batches() * PER_SECOND / (double) EVENTS * pace.millisPerInvocation() / 1_000);
            for (int containers : List.of(5, 50)) {
                Simulation.Intervals spread = Simulation.Intervals.atEvents(STEPS);
                Simulation.run(config, workload, mode, shape, new Simulation.Containers(containers, containers), spread);
                double first = SnapshotRow.of(null, spread.snapshots.get(0), workload.arrivals().get(0).at(), prices).readUnitsPerBatch();
                double last = SnapshotRow.of(spread.snapshots.get(STEPS.size() - 2), spread.snapshots.get(STEPS.size() - 1),
                        workload.arrivals().get(0).at(), prices).readUnitsPerBatch();
                out.printf(Locale.ROOT, "With %d ingest and %d timer containers: %.2f read units per batch at 1,000 events, %.2f at 50,000 (%.2fx).%n",
                        containers, containers, first, last, last / first);
            }
            out.println();
        }
    }

    /** One step of a baseline: its units and price per event, and its window item's size at the step's end. */
    record BaselineStep(double readUnitsPerEvent, double writeUnitsPerEvent, double dollarsPerMillion, long itemBytes) { }

    /**
     * @param steps             naive, then competent, for each step
     * @param naiveFailsAt      events handled when the naive item first passed 400 KB (0: never)
     * @param competentFailsAt  the same for the competent design
     */
    record Baselines(List<BaselineStep[]> steps, long naiveFailsAt, long competentFailsAt) { }

    /** Both baselines over the same batches, step by step. */
    static Baselines baselines(FaninConfig config, Workload workload, Simulation.BatchShape shape, PriceTable prices) {
        NaiveBaseline naive = new NaiveBaseline(BenchMain.pipelines(config));
        CompetentBaseline competent = new CompetentBaseline(BenchMain.pipelines(config));
        List<BaselineStep[]> steps = new ArrayList<>();
        DynamoDbBill naiveBefore = new DynamoDbBill();
        DynamoDbBill competentBefore = new DynamoDbBill();
        long events = 0;
        long eventsBefore = 0;
        long batches = 0;
        long batchesBefore = 0;
        long sqs = 0;
        long sqsBefore = 0;
        long naiveFailsAt = 0;
        long competentFailsAt = 0;
        List<List<Arrival>> arrivals = Simulation.batches(workload.arrivals(), shape);
        Instant stepStart = workload.arrivals().get(0).at();
        List<List<Event>> parsed = BenchMain.parseBatches(config, workload, shape);
        for (int b = 0; b < parsed.size(); b++) {
            List<Event> batch = parsed.get(b);
            Instant batchAt = arrivals.get(b).get(arrivals.get(b).size() - 1).at();
            batch.forEach(naive::accept);
            competent.acceptBatch(batch);
            events += batch.size();
            batches++;
            sqs += SqsRequests.receiveAndDelete(arrivals.get(b).size());
            naiveFailsAt = naiveFailsAt == 0 && naive.largestItemBytes() > ITEM_LIMIT ? events : naiveFailsAt;
            competentFailsAt = competentFailsAt == 0 && competent.largestItemBytes() > ITEM_LIMIT ? events : competentFailsAt;
            if (steps.size() < STEPS.size() && events >= STEPS.get(steps.size())) {
                Duration span = Duration.between(stepStart, batchAt);
                steps.add(new BaselineStep[] {
                        step(naive.bill().since(naiveBefore), events - eventsBefore, batches - batchesBefore, sqs - sqsBefore, span,
                                naive.largestItemBytes(), prices),
                        step(competent.bill().since(competentBefore), events - eventsBefore, batches - batchesBefore, sqs - sqsBefore, span,
                                competent.largestItemBytes(), prices)});
                stepStart = batchAt;
                naiveBefore = naive.bill().copy();
                competentBefore = competent.bill().copy();
                eventsBefore = events;
                batchesBefore = batches;
                sqsBefore = sqs;
            }
        }
        return new Baselines(steps, naiveFailsAt, competentFailsAt);
    }

    private static String passed(long events) {
        return events == 0 ? "never" : String.format(Locale.ROOT, "%,d (within its batch)", events);
    }

    /**
     * A step's figures; the window is not flushed within a step, and its mapping polls all through the step's span.
     *
     * @param inputRequests the step's batches' receives and deletes ({@link SqsRequests})
     */
    private static BaselineStep step(DynamoDbBill bill, long events, long batches, long inputRequests, Duration span, long itemBytes,
                                     PriceTable prices) {
        ProfileFigures f = new ProfileFigures(events, 0, 0, bill, batches, inputRequests + EventSourcePolls.BASELINE.over(span), 0, 0, 0);
        return new BaselineStep(bill.readUnits() / events, f.writeUnitsPerEvent(), f.totalPerMillion(prices), itemBytes);
    }

    private static void table(PrintStream out, Workload workload, List<Simulation.Snapshot> snapshots, PriceTable prices,
                              List<BaselineStep[]> baselines) {
        out.printf("## %s%n%n%s, one window (pipeline maxEventsPerWindow 100,000).%n%n", workload.name(), workload.summary());
        out.println("| window size | read units / batch | read units / event | write units / event | DynamoDB calls / batch "
                + "| Query pages / batch | bytes read / batch | $ / M events | naive: read, write units / event, $ / M "
                + "| competent: read, write units / event, $ / M | competent item |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        List<SnapshotRow> rows = new ArrayList<>();
        for (int i = 0; i < STEPS.size() && i < snapshots.size(); i++) {
            SnapshotRow row = SnapshotRow.of(i == 0 ? null : snapshots.get(i - 1), snapshots.get(i), workload.arrivals().get(0).at(), prices);
            rows.add(row);
            BaselineStep naive = baselines.get(i)[0];
            BaselineStep competent = baselines.get(i)[1];
            out.printf(Locale.ROOT, "| %,d | %.2f | %.4f | %.4f | %.2f | %.2f | %,.0f | %.2f | %.4f, %.3f, %.2f | %.4f, %.3f, %.2f | %s |%n",
                    STEPS.get(i), row.readUnitsPerBatch(), row.readUnitsPerEvent(), row.writeUnitsPerEvent(), row.callsPerBatch(),
                    row.queryPagesPerBatch(), row.bytesPerBatch(), row.dollarsPerMillion(), naive.readUnitsPerEvent(),
                    naive.writeUnitsPerEvent(), naive.dollarsPerMillion(), competent.readUnitsPerEvent(), competent.writeUnitsPerEvent(),
                    competent.dollarsPerMillion(), itemSize(competent.itemBytes()));
        }
        if (snapshots.size() > STEPS.size()) {
            DynamoDbBill close = snapshots.get(STEPS.size()).bill().since(snapshots.get(STEPS.size() - 1).bill());
            out.printf(Locale.ROOT, "%nAfter the last event (the close, its flush and the sweeps until nothing is due): %.1f read units, "
                    + "%.1f write units, %d DynamoDB calls.%n", close.readUnits(), close.writeUnits(), close.calls());
        }
        if (rows.size() == STEPS.size()) {
            out.printf(Locale.ROOT, "%nRead units per batch at 50,000 events against 1,000: %.2fx (goal: within 1.5x).%n%n",
                    rows.get(rows.size() - 1).readUnitsPerBatch() / rows.get(0).readUnitsPerBatch());
        }
    }

    private static String itemSize(long bytes) {
        String size = String.format(Locale.ROOT, "%,d KB", (bytes + 1023) / 1024);
        return bytes > ITEM_LIMIT ? size + ", **fails** (over 400 KB)" : size;
    }
}
