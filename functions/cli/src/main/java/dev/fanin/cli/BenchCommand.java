package dev.fanin.cli;

import java.util.List;

/** {@code fanin bench}: the cost and latency benchmark of docs/BENCHMARKS.md, fanin beside the naive baseline. */
final class BenchCommand implements Command {

    @Override
    public String name() {
        return "bench";
    }

    @Override
    public String summary() {
        return "measure write units, calls, cost and close latency per profile, beside a naive baseline";
    }

    @Override
    public List<Flag> flags() {
        return List.of(
                Flag.valued("profiles", "LIST", "comma-separated: alert-storm,sparse,file-uploads,hot-key,late-heavy (default all)"),
                Flag.valued("scale", "X", "workload size multiplier (default 1.0)"),
                Flag.valued("seed", "N", "random seed (default 42)"),
                Flag.valued("reps", "N", "CPU timing passes (default 5; 0 skips the timing, every other figure is a count)"),
                Flag.valued("batch-size", "N", "SQS batch size (default 10, the template's)"),
                Flag.valued("batching-window-ms", "MS", "SQS batching window (default 100)"));
    }

    @Override
    public String details() {
        return "Prints a Markdown report. Cold start and the JMH core benchmark are separate commands: see docs/BENCHMARKS.md.";
    }

    @Override
    public int run(List<String> args, Console console) {
        QuietLogs.off();
        dev.fanin.bench.BenchMain.main(args.toArray(String[]::new));
        return 0;
    }
}
