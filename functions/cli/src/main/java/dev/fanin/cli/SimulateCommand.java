package dev.fanin.cli;

import java.util.List;

/**
 * {@code fanin simulate}: the deterministic fault-injecting simulation of docs/RELIABILITY.md (the real services over
 * many virtual workers on a simulated clock, with crashes, throttling, redelivery, reordering and late events), with
 * every invariant checked at the end. Exits 0 when all held, 1 otherwise (the seed reproduces the run).
 */
final class SimulateCommand implements Command {

    @Override
    public String name() {
        return "simulate";
    }

    @Override
    public String summary() {
        return "run the seeded fault-injecting simulation and check every reliability invariant";
    }

    @Override
    public List<Flag> flags() {
        return List.of(
                Flag.valued("events", "N", "distinct events (e.g. 1000000 for the long run)"),
                Flag.valued("keys", "N", "group keys"),
                Flag.valued("duplicates", "P", "share of duplicate producer sends"),
                Flag.valued("reorder", "P", "share of reordered sends"),
                Flag.valued("late", "P", "share of late sends"),
                Flag.valued("crashes", "N", "crashes to inject"),
                Flag.valued("seed", "N", "random seed"),
                Flag.valued("shapes", "LIST", "session,tumbling-expected,session-sentinel-hold"),
                Flag.valued("preset", "NAME", "bounded: a run of the test suite's BoundedSimulationTest"));
    }

    @Override
    public String details() {
        return "More flags (rates, workers, floods, throttling, emitter faults): see docs/RELIABILITY.md.";
    }

    @Override
    public int run(List<String> args, Console console) {
        QuietLogs.off();
        dev.fanin.sim.SimulationMain.main(args.toArray(String[]::new));
        return 0;
    }
}
