package dev.fanin.cli;

import dev.fanin.sim.FaultRates;
import dev.fanin.sim.Shape;
import dev.fanin.sim.Simulation;
import dev.fanin.sim.SimulationConfig;
import dev.fanin.sim.SimulationReport;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code fanin simulate}: the deterministic fault-injecting simulation of docs/RELIABILITY.md (the real services over
 * many virtual workers on a simulated clock, with crashes, throttling, redelivery, reordering and late events), with
 * every invariant checked at the end. Exits 0 when all held, 1 otherwise (the seed reproduces the run). The defaults
 * are the long run's, except {@code --events}: a tenth of its events, about 20 s and 1.5 GB here, where the long run
 * needs about 10 GB of heap.
 */
@Command(name = "simulate", description = "run the seeded fault-injecting simulation and check every reliability invariant",
        footer = {"", "The long run: fanin simulate --events 1000000 (FANIN_JAVA_OPTS=-Xmx10g); docs/RELIABILITY.md.",
                "Exits 0 when every invariant held, 1 when one did not (the report says which; the seed reproduces it)."})
final class SimulateCommand extends FaninCommand {

    private static final FaultRates BASE = new FaultRates(0, 0.002, 0.005, 0.0005, 0.005, 0.02, 0.005, 0.02, 0);

    @Option(names = "--events", paramLabel = "N", description = "distinct events (default ${DEFAULT-VALUE}; 1000000 for the long run)")
    private int events = 100_000;
    @Option(names = "--keys", paramLabel = "N", description = "group keys (default ${DEFAULT-VALUE})")
    private int keys = 10_000;
    @Option(names = "--duplicates", paramLabel = "P", description = "share of duplicate producer sends (default ${DEFAULT-VALUE})")
    private double duplicates = 0.10;
    @Option(names = "--reorder", paramLabel = "P", description = "share of reordered sends (default ${DEFAULT-VALUE})")
    private double reorder = 0.20;
    @Option(names = "--late", paramLabel = "P", description = "share of late sends (default ${DEFAULT-VALUE})")
    private double late = 0.02;
    @Option(names = "--very-late", paramLabel = "P", description = "share of sends beyond any lateness (default: --late / 4)")
    private Double veryLate;
    @Option(names = "--crashes", paramLabel = "N", description = "crashes to inject (default ${DEFAULT-VALUE})")
    private int crashes = 1_000;
    @Option(names = "--seed", paramLabel = "N", description = "random seed (default ${DEFAULT-VALUE})")
    private long seed = 42;
    @Option(names = "--rate", paramLabel = "EVENTS_PER_SECOND", description = "mean producer rate, simulated (default ${DEFAULT-VALUE})")
    private double rate = 40;
    @Option(names = "--workers", paramLabel = "N", description = "virtual Lambda containers (default ${DEFAULT-VALUE})")
    private int workers = 8;
    @Option(names = "--flood", paramLabel = "N", description = "unique keys sent in one 5-second burst (default ${DEFAULT-VALUE})")
    private int flood = 2_000;
    @Option(names = "--max-open-windows", paramLabel = "N", description = "every pipeline's open-window bound (default ${DEFAULT-VALUE})")
    private int maxOpenWindows = 20_000;
    @Option(names = "--throttle", paramLabel = "P", description = "share of throttled store calls")
    private double throttle = BASE.throttle();
    @Option(names = "--failed-emit", paramLabel = "P", description = "share of failed emissions")
    private double failedEmit = BASE.failedEmit();
    @Option(names = "--slow-emit", paramLabel = "P", description = "share of emissions stalled past the lease")
    private double slowEmit = BASE.slowEmit();
    @Option(names = "--interleave", paramLabel = "P", description = "share of steps interleaved with another worker")
    private double interleave = BASE.interleave();
    @Option(names = "--shapes", paramLabel = "LIST", split = ",", converter = ShapeName.class,
            description = "session,tumbling-expected,session-sentinel-hold (the sample pipelines, the default), tumbling (a one-minute rollup)")
    private List<Shape> shapes = Shape.SAMPLES;
    /** What a preset takes besides itself; every other flag would be ignored by it. */
    private static final List<String> PRESET_FLAGS = List.of("--preset", "--seed", "--shapes");
    @Spec
    private CommandSpec spec;
    @Option(names = "--preset", paramLabel = "NAME",
            description = "bounded: exactly a run of the test suite's BoundedSimulationTest; outages: the same with consumer outages"
                    + " and shuffled backlogs (OutageSimulationTest); with --seed and --shapes")
    private String preset;

    @Override
    protected int run(Console console) throws UsageException {
        SimulationConfig config = config();
        QuietLogs.off();
        console.out().println("fanin simulation: " + config.events() + " events, " + config.keys() + " keys, shapes " + config.shapes()
                + ", seed " + config.seed());
        SimulationReport report = Simulation.run(config);
        console.out().print(report.summary());
        console.out().println(report.ok() ? "OK: every invariant held"
                : "FAILED: " + report.violationCount() + " violations (seed " + config.seed() + ")");
        return report.ok() ? FaninCli.OK : FaninCli.INVALID_INPUT;
    }

    private SimulationConfig config() throws UsageException {
        if (preset != null) {
            List<String> ignored = spec.commandLine().getParseResult().matchedOptions().stream()
                    .map(o -> o.longestName()).filter(name -> !PRESET_FLAGS.contains(name)).toList();
            if (!ignored.isEmpty()) {
                throw new UsageException("--preset " + preset + " runs its own workload: it takes --seed and --shapes only, not "
                        + String.join(", ", ignored));
            }
            return switch (preset) {
                case "bounded" -> SimulationConfig.bounded(seed, shapes);
                case "outages" -> SimulationConfig.outages(seed, shapes);
                default -> throw new UsageException("--preset " + preset + ": the presets are bounded and outages");
            };
        }
        for (double share : new double[] {duplicates, reorder, late, throttle, failedEmit, slowEmit, interleave}) {
            if (!(share >= 0 && share <= 1)) { // NaN too
                throw new UsageException("shares (--duplicates, --reorder, --late, --throttle, ...) must be between 0 and 1, was " + share);
            }
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new UsageException("--rate must be a positive number of events per second, was " + rate);
        }
        if (events < 1 || keys < 1 || workers < 1 || maxOpenWindows < 1 || crashes < 0 || flood < 0) {
            throw new UsageException("--events, --keys, --workers and --max-open-windows must be at least 1; --crashes and --flood "
                    + "must not be negative");
        }
        double veryLateShare = veryLate != null ? veryLate : late / 4;
        if (veryLateShare + late + reorder > 1) {
            throw new UsageException("--late, --very-late and --reorder add up to more than 1");
        }
        FaultRates faults = new FaultRates(crashes, throttle, failedEmit, slowEmit, interleave, BASE.lostTimer(), BASE.lostDelete(),
                BASE.doubleSweep(), BASE.slowCall());
        return new SimulationConfig(seed, shapes, events, keys, rate, duplicates, reorder, late, veryLateShare, flood, Duration.ofMinutes(10),
                maxOpenWindows, Duration.ofMinutes(30), Duration.ofMinutes(5), workers, Duration.ofSeconds(2), Duration.ofSeconds(60), 5,
                Duration.ofMinutes(1), faults);
    }

    /** {@code tumbling-expected} for {@link Shape#TUMBLING_EXPECTED}. */
    static final class ShapeName implements ITypeConverter<Shape> {
        @Override
        public Shape convert(String text) {
            try {
                return Shape.valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("unknown shape " + text + "; use session, tumbling-expected, session-sentinel-hold, tumbling");
            }
        }
    }
}
