package dev.fanin.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The long run, from the command line (wired to {@code ./fanin simulate}; see docs/RELIABILITY.md):
 *
 * <pre>
 * java -cp ... dev.fanin.sim.SimulationMain --events 1000000 --keys 10000 --duplicates 0.10 --reorder 0.20 \
 *      --late 0.02 --crashes 1000 --seed 42
 * </pre>
 *
 * Prints the report and exits 0 when every invariant held, 1 when one did not (the report says which, and the seed
 * reproduces it), 2 on bad arguments.
 */
public final class SimulationMain {

    private SimulationMain() {
    }

    public static void main(String[] args) {
        SimulationConfig config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("simulate: " + e.getMessage());
            System.err.println(usage());
            System.exit(2);
            return;
        }
        System.out.println("fanin simulation: " + config.events() + " events, " + config.keys() + " keys, shapes " + config.shapes()
                + ", seed " + config.seed());
        SimulationReport report = Simulation.run(config);
        System.out.print(report.summary());
        System.out.println(report.ok() ? "OK: every invariant held" : "FAILED: " + report.violationCount() + " violations (seed " + config.seed() + ")");
        System.exit(report.ok() ? 0 : 1);
    }

    static String usage() {
        return """
                usage: simulate [--events N] [--keys N] [--duplicates P] [--reorder P] [--late P] [--very-late P]
                                [--crashes N] [--seed N] [--rate EVENTS_PER_SECOND] [--workers N] [--flood N]
                                [--max-open-windows N] [--shapes session,tumbling-expected,session-sentinel-hold]
                                [--throttle P] [--failed-emit P] [--slow-emit P] [--interleave P]
                       simulate --preset bounded --seed N --shapes SHAPE   (a run of BoundedSimulationTest)""";
    }

    static SimulationConfig parse(String[] args) {
        int events = 1_000_000;
        int keys = 10_000;
        double duplicates = 0.10;
        double reorder = 0.20;
        double late = 0.02;
        Double veryLate = null;
        int crashes = 1_000;
        long seed = 42;
        double rate = 40;
        int workers = 8;
        int flood = 2_000;
        int maxOpen = 20_000;
        List<Shape> shapes = Arrays.asList(Shape.values());
        FaultRates base = new FaultRates(0, 0.002, 0.005, 0.0005, 0.005, 0.02, 0.005, 0.02);
        double throttle = base.throttle();
        double failedEmit = base.failedEmit();
        double slowEmit = base.slowEmit();
        double interleave = base.interleave();
        boolean bounded = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                throw new IllegalArgumentException("help");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String v = args[++i];
            switch (flag) {
                case "--events" -> events = positive(flag, v);
                case "--keys" -> keys = positive(flag, v);
                case "--duplicates" -> duplicates = share(flag, v);
                case "--reorder" -> reorder = share(flag, v);
                case "--late" -> late = share(flag, v);
                case "--very-late" -> veryLate = share(flag, v);
                case "--crashes" -> crashes = nonNegative(flag, v);
                case "--seed" -> seed = Long.parseLong(v);
                case "--rate" -> rate = Double.parseDouble(v);
                case "--workers" -> workers = positive(flag, v);
                case "--flood" -> flood = nonNegative(flag, v);
                case "--max-open-windows" -> maxOpen = positive(flag, v);
                case "--throttle" -> throttle = share(flag, v);
                case "--failed-emit" -> failedEmit = share(flag, v);
                case "--slow-emit" -> slowEmit = share(flag, v);
                case "--interleave" -> interleave = share(flag, v);
                case "--shapes" -> shapes = shapes(v);
                case "--preset" -> {
                    if (!v.equals("bounded")) {
                        throw new IllegalArgumentException("unknown preset " + v + "; the only preset is bounded");
                    }
                    bounded = true;
                }
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        if (bounded) {
            // Exactly the configuration of BoundedSimulationTest, to reproduce one of its runs from its seed and shape.
            return SimulationConfig.bounded(seed, shapes);
        }
        double veryLateShare = veryLate != null ? veryLate : late / 4;
        if (veryLateShare + late + reorder > 1) {
            throw new IllegalArgumentException("--late, --very-late and --reorder add up to more than 1");
        }
        FaultRates faults = new FaultRates(crashes, throttle, failedEmit, slowEmit, interleave, base.lostTimer(), base.lostDelete(),
                base.doubleSweep());
        return new SimulationConfig(seed, shapes, events, keys, rate, duplicates, reorder, late, veryLateShare, flood, Duration.ofMinutes(10),
                maxOpen, Duration.ofMinutes(30), Duration.ofMinutes(5), workers, Duration.ofSeconds(2), Duration.ofSeconds(60), 5,
                Duration.ofMinutes(1), faults);
    }

    private static List<Shape> shapes(String v) {
        List<Shape> out = new ArrayList<>();
        for (String s : v.split(",")) {
            try {
                out.add(Shape.valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown shape " + s + "; use session, tumbling-expected, session-sentinel-hold");
            }
        }
        return out;
    }

    private static int positive(String flag, String v) {
        int n = Integer.parseInt(v);
        if (n < 1) {
            throw new IllegalArgumentException(flag + " must be at least 1");
        }
        return n;
    }

    private static int nonNegative(String flag, String v) {
        int n = Integer.parseInt(v);
        if (n < 0) {
            throw new IllegalArgumentException(flag + " must not be negative");
        }
        return n;
    }

    private static double share(String flag, String v) {
        double p = Double.parseDouble(v);
        if (p < 0 || p > 1) {
            throw new IllegalArgumentException(flag + " must be between 0 and 1");
        }
        return p;
    }
}
