package dev.fanin.bench;

import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.MessageIntake;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code fanin bench}: runs every workload profile through the real services on a simulated clock, bills the
 * DynamoDB calls by size, runs the naive baseline over the same events, and prints a Markdown report.
 *
 * <pre>
 *   fanin bench [--profiles alert-storm,sparse,...] [--scale 1.0] [--seed 42] [--reps 5]
 *               [--batch-size 10] [--batching-window-ms 100]
 * </pre>
 */
public final class BenchMain {

    static final String USAGE = "fanin bench [--profiles " + String.join(",", Workloads.NAMES)
            + "] [--scale 1.0] [--seed 42] [--reps 5] [--batch-size 10] [--batching-window-ms 100]";

    record Options(List<String> profiles, double scale, long seed, int reps, Simulation.BatchShape shape) {

        static Options parse(String[] args) {
            List<String> profiles = Workloads.NAMES;
            double scale = 1.0;
            long seed = 42;
            int reps = 5;
            int batchSize = Simulation.BatchShape.DEFAULT.size();
            long windowMillis = Simulation.BatchShape.DEFAULT.window().toMillis();
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--profiles" -> profiles = Arrays.asList(required(args[i], value).split(","));
                    case "--scale" -> scale = Double.parseDouble(required(args[i], value));
                    case "--seed" -> seed = Long.parseLong(required(args[i], value));
                    case "--reps" -> reps = Integer.parseInt(required(args[i], value));
                    case "--batch-size" -> batchSize = Integer.parseInt(required(args[i], value));
                    case "--batching-window-ms" -> windowMillis = Long.parseLong(required(args[i], value));
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; usage: " + USAGE);
                }
                i++;
            }
            return new Options(profiles, scale, seed, reps, new Simulation.BatchShape(batchSize, java.time.Duration.ofMillis(windowMillis)));
        }

        private static String required(String option, String value) {
            if (value == null) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return value;
        }
    }

    /** Everything measured for one profile. */
    record ProfileReport(Workload workload, Simulation.Result timers, Simulation.Result sweeper, ProfileFigures fanin,
                         ProfileFigures baseline, CpuTiming.Result cpu, CloseLatency.Summary timerLatency,
                         CloseLatency.Summary sweepLatency) { }

    private BenchMain() { }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        FaninConfig config = BenchPipelines.load();
        PriceTable prices = PriceTable.usEast1();
        PrintStream out = System.out;
        out.printf("# fanin bench%n%nmachine: %d cores, %s %s, %s; scale %.2f, seed %d, %d timing passes; SQS batches of up to %d messages within %d ms%n%nprices: %s%n%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"), System.getProperty("java.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.arch"), options.scale(), options.seed(), options.reps(),
                options.shape().size(), options.shape().window().toMillis(), prices.describe());
        List<ProfileReport> reports = new ArrayList<>();
        for (String name : options.profiles()) {
            ProfileReport report = run(config, Workloads.named(name, options.scale(), options.seed()), options.shape(), options.reps());
            reports.add(report);
            Report.profile(out, report, prices);
        }
        Report.summary(out, reports, prices);
    }

    static ProfileReport run(FaninConfig config, Workload workload, Simulation.BatchShape shape, int reps) {
        List<Event> events = parse(config, workload);
        Simulation.Result timers = Simulation.run(config, workload, Simulation.Mode.TIMERS, shape);
        Simulation.Result sweeper = Simulation.run(config, workload, Simulation.Mode.SWEEPER, shape);
        NaiveBaseline baseline = new NaiveBaseline(pipelines(config));
        events.forEach(baseline::accept);
        DynamoDbBill baselineBill = baseline.flushAll();
        CpuTiming.Result cpu = reps > 0 ? CpuTiming.measure(config, workload, shape, reps) : new CpuTiming.Result(
                new CpuTiming.Spread(0, 0, 0), new CpuTiming.Spread(0, 0, 0));
        CloseLatency latency = new CloseLatency(config, events);
        long inputSqs = 2L * timers.batches();
        long firstRevisions = latency.summarize(timers.emitted()).windows();
        ProfileFigures fanin = new ProfileFigures(events.size(), firstRevisions, timers.emitted().size(), timers.bill(),
                timers.batches() + timers.timerInvocations() + timers.sweeps(),
                // Timers: the sends as made (ten per SendMessageBatch), and a receive and a delete per timer batch as
                // the event source mapping makes them (as for the input queue, on both sides).
                inputSqs + timers.timerSendRequests() + 2 * timers.timerInvocations(), cpu.endToEnd().medianMicros());
        ProfileFigures naive = new ProfileFigures(events.size(), baseline.windows(), baseline.windows(), baselineBill, timers.batches(),
                inputSqs, cpu.core().medianMicros());
        return new ProfileReport(workload, timers, sweeper, fanin, naive, cpu, latency.summarize(timers.emitted()),
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

    static Map<String, PipelineConfig> pipelines(FaninConfig config) {
        Map<String, PipelineConfig> byName = new LinkedHashMap<>();
        config.pipelines().forEach(p -> byName.put(p.name(), p));
        return byName;
    }
}
