package dev.fanin.bench;

import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.MessageIntake;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code fanin bench}: runs every workload profile through the real services on a simulated clock, bills the
 * DynamoDB calls by size, runs the naive baseline over the same events, and prints a Markdown report. The command
 * line is the CLI's ({@code fanin bench --help}); this class takes the parsed {@link Options}.
 */
public final class BenchMain {

    /**
     * One run's settings.
     *
     * @param profiles       workload profile names ({@link Workloads#NAMES}, {@code sparse-N}, {@code history}, {@code history-N}, {@code grow} or {@code hot-key-15m})
     * @param scale          workload size multiplier (1.0: the documented sizes)
     * @param reps           CPU timing passes (0 skips the timing; every other figure is a count)
     * @param batchSize      SQS batch size
     * @param batchingWindow SQS batching window
     * @param maxConcurrency the ingest event source's maximum concurrency, for the throughput figure
     * @param timerBatchingWindow the timer queue's batching window
     */
    public record Options(List<String> profiles, double scale, long seed, int reps, int batchSize, java.time.Duration batchingWindow,
                          int maxConcurrency, java.time.Duration timerBatchingWindow) {

        public Options {
            profiles = List.copyOf(profiles);
            profiles.forEach(Workloads::checkKnown);
            if (reps < 0 || batchSize < 1 || batchingWindow.isNegative() || maxConcurrency < 1 || timerBatchingWindow.isNegative()) {
                throw new IllegalArgumentException("--reps must not be negative, --batch-size and --max-concurrency must be at "
                        + "least 1 and --batching-window-ms and --timer-batching-window-ms must not be negative");
            }
        }

        Simulation.BatchShape shape() {
            return new Simulation.BatchShape(batchSize, batchingWindow);
        }

        Simulation.Mode timers() {
            return Simulation.Mode.timers(timerBatchingWindow);
        }
    }

    /** Everything measured for one profile. */
    record ProfileReport(Workload workload, Simulation.Result timers, Simulation.Result sweeper, ProfileFigures fanin,
                         ProfileFigures baseline, ProfileFigures competent, CpuTiming.Result cpu, CloseLatency.Summary timerLatency,
                         CloseLatency.Summary sweepLatency) {

        /** fanin's dollars by line item. */
        CostLines faninLines(PriceTable prices) {
            return CostLines.fanin(CostLines.Usage.of(timers, fanin.events(), fanin.windows(), fanin.cpuMicrosPerEvent()), prices);
        }

        /** The competent design's dollars by line item. */
        CostLines competentLines(PriceTable prices) {
            return CostLines.baseline(competent, prices);
        }
    }

    /**
     * The template's ingest defaults ({@code IngestBatchSize}, {@code IngestMaxBatchingWindowSeconds},
     * {@code IngestMaxConcurrency}; {@code TemplateDefaultsTest} holds them equal). A batching window of 0 is run as
     * the 100 ms a poll takes to fill a batch.
     */
    public static final int DEFAULT_BATCH_SIZE = 100;
    public static final long DEFAULT_BATCHING_WINDOW_MS = 1_000;
    public static final int DEFAULT_MAX_CONCURRENCY = 50;
    /** The template's {@code TimerMaxBatchingWindowSeconds}, in ms. */
    public static final long DEFAULT_TIMER_BATCHING_WINDOW_MS = Simulation.TIMER_QUEUE.window().toMillis();

    private BenchMain() { }

    public static void report(Options options, PrintStream out) {
        FaninConfig config = BenchPipelines.load();
        PriceTable prices = PriceTable.usEast1();
        out.printf("# fanin bench%n%nmachine: %d cores, %s %s, %s; scale %.2f, seed %d, %d timing passes; SQS batches of up to %d messages "
                        + "within %d ms; ingest concurrency at most %d; timer batches of up to %d messages within %d ms%n%nprices: %s%n%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"), System.getProperty("java.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.arch"), options.scale(), options.seed(), options.reps(),
                options.shape().size(), options.shape().window().toMillis(), options.maxConcurrency(), options.timers().timerQueue().size(),
                options.timers().timerQueue().window().toMillis(), prices.describe());
        Throughput.Limits limits = Throughput.Limits.aws(options.maxConcurrency(), options.shape().window());
        List<ProfileReport> reports = new ArrayList<>();
        List<Throughput.Result> throughputs = new ArrayList<>();
        for (String name : options.profiles()) {
            int historyKeys = Workloads.historyKeys(name);
            if (historyKeys > 0) {
                // Days of traffic per key, reported per 6-hour interval (not in the default run: 7 simulated days).
                HistoryProfile.report(out, config, prices, options.timers(), 7 * options.scale(), options.seed(), List.of(historyKeys));
                continue;
            }
            if (name.equals(Workloads.GROW)) {
                // One window growing to 50,000 events, tumbling and session (not in the default run).

                GrowProfile.report(out, prices, options.shape(), options.timers());
                continue;
            }
            if (name.equals(Workloads.HOT_KEY_SUSTAINED)) {
                SustainedHotKey.report(out, prices, options.shape(), options.timers(), limits, 15 * options.scale());
                continue;
            }
            ProfileReport report = run(config, Workloads.named(name, options.scale(), options.seed()), options.shape(), options.timers(),
                    options.reps());
            Throughput.Result throughput = throughput(report, prices, limits);
            reports.add(report);
            throughputs.add(throughput);
            Report.profile(out, report, prices);
            CostReport.profile(out, report.faninLines(prices), report.competentLines(prices));
            Report.throughput(out, report, throughput, prices);
        }
        if (!reports.isEmpty()) {
            Report.summary(out, reports, throughputs, prices);
            CostReport.summary(out, reports.stream().map(r -> r.workload().name()).toList(),
                    reports.stream().map(r -> r.faninLines(prices)).toList(), reports.stream().map(r -> r.competentLines(prices)).toList());
        }
    }

    /** The ingest function's sustained rate in the run with timers, against {@code limits}. */
    static Throughput.Result throughput(ProfileReport report, PriceTable prices, Throughput.Limits limits) {
        return Throughput.of(report.timers().ingestLoad(), report.timers().bill().partitions(), prices.waits(), limits);
    }

    static ProfileReport run(FaninConfig config, Workload workload, Simulation.BatchShape shape, int reps) {
        return run(config, workload, shape, Simulation.Mode.TIMERS, reps);
    }

    static ProfileReport run(FaninConfig config, Workload workload, Simulation.BatchShape shape, Simulation.Mode mode, int reps) {
        List<Event> events = parse(config, workload);
        Simulation.Result timers = Simulation.run(config, workload, mode, shape);
        Simulation.Result sweeper = Simulation.run(config, workload, Simulation.Mode.SWEEPER, shape);
        NaiveBaseline baseline = new NaiveBaseline(pipelines(config));
        events.forEach(baseline::accept);
        DynamoDbBill baselineBill = baseline.flushAll();
        CompetentBaseline competent = new CompetentBaseline(pipelines(config));
        parseBatches(config, workload, shape).forEach(competent::acceptBatch);
        DynamoDbBill competentBill = competent.flushAll();
        CpuTiming.Result cpu = reps > 0 ? CpuTiming.measure(config, workload, shape, reps) : new CpuTiming.Result(
                new CpuTiming.Spread(0, 0, 0), new CpuTiming.Spread(0, 0, 0));
        CloseLatency latency = new CloseLatency(config, events);
        long firstRevisions = latency.summarize(timers.emitted()).windows();
        ProfileFigures fanin = new ProfileFigures(events.size(), firstRevisions, timers.emitted().size(), timers.pricedBill(),
                timers.batches() + timers.timerInvocations() + timers.sweeps(),
                timers.inputSqsRequests() + timers.timerSqsRequests() + timers.sideOutputSends(), timers.emitCalls(),
                timers.timerSendRequests() + timers.sideOutputSends(), cpu.endToEnd().medianMicros());
        // The baselines take the same input batches (each one's receives and deletes) and send no timers; they emit one
        // event per window, the naive design with a PutEvents call each, the competent one ten a call.
        long baselineSqs = timers.inputQueueRequests() + EventSourcePolls.BASELINE.over(timers.span());
        ProfileFigures naive = new ProfileFigures(events.size(), baseline.windows(), baseline.windows(), baselineBill, timers.batches(),
                baselineSqs, baseline.windows(), 0, cpu.core().medianMicros());
        ProfileFigures strong = new ProfileFigures(events.size(), competent.windows(), competent.windows(), competentBill, timers.batches(),
                baselineSqs, competent.putEventsCalls(), 0, cpu.core().medianMicros());
        return new ProfileReport(workload, timers, sweeper, fanin, naive, strong, cpu, latency.summarize(timers.emitted()),
                latency.summarize(sweeper.emitted()));
    }

    /** The workload's events as intake reads them, each arriving when its message reaches the queue. */
    static List<Event> parse(FaninConfig config, Workload workload) {
        MessageIntake intake = new MessageIntake(config);
        List<Event> events = new ArrayList<>();
        for (Arrival a : workload.arrivals()) {
            events.addAll(intake.parse(a.message(a.at())).accepted());
        }
        return events;
    }

    /** The workload's events as intake reads them, in the SQS batches the event source mapping forms. */
    static List<List<Event>> parseBatches(FaninConfig config, Workload workload, Simulation.BatchShape shape) {
        MessageIntake intake = new MessageIntake(config);
        List<List<Event>> batches = new ArrayList<>();
        for (List<Arrival> batch : Simulation.batches(workload.arrivals(), shape)) {
            batches.add(batch.stream().flatMap(a -> intake.parse(a.message(a.at())).accepted().stream()).toList());
        }
        return batches;
    }

    static Map<String, PipelineConfig> pipelines(FaninConfig config) {
        Map<String, PipelineConfig> byName = new LinkedHashMap<>();
        config.pipelines().forEach(p -> byName.put(p.name(), p));
        return byName;
    }
}
