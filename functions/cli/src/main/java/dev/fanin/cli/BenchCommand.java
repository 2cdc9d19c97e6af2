package dev.fanin.cli;

import dev.fanin.bench.BenchMain;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fanin bench}: the cost and latency benchmark of docs/BENCHMARKS.md, fanin beside the naive baseline. */
@Command(name = "bench", description = "measure write units, calls, cost and close latency per profile, beside a naive baseline",
        footer = "Prints a Markdown report. Cold start and the JMH core benchmark are separate commands: see docs/BENCHMARKS.md.")
final class BenchCommand extends FaninCommand {

    @Option(names = "--profiles", paramLabel = "LIST", split = ",",
            description = "comma-separated: alert-storm,sparse,file-uploads,hot-key,late-heavy, sparse-N, history or history-N, grow, hot-key-15m, late-sessions (default the first five; history runs 7 simulated days, grow two windows to 50,000 events, hot-key-15m one key at 5,000 events/s for 15 minutes, late-sessions the alert storm with late alerts)")
    private List<String> profiles = dev.fanin.bench.Workloads.NAMES;
    @Option(names = "--scale", paramLabel = "X", description = "workload size multiplier (default ${DEFAULT-VALUE})")
    private double scale = 1.0;
    @Option(names = "--seed", paramLabel = "N", description = "random seed (default ${DEFAULT-VALUE})")
    private long seed = 42;
    @Option(names = "--reps", paramLabel = "N", description = "CPU timing passes (default ${DEFAULT-VALUE}; 0 skips the timing, every other figure is a count)")
    private int reps = 5;
    @Option(names = "--batch-size", paramLabel = "N", description = "SQS batch size (default ${DEFAULT-VALUE}, the template's)")
    private int batchSize = BenchMain.DEFAULT_BATCH_SIZE;
    @Option(names = "--batching-window-ms", paramLabel = "MS", description = "SQS batching window (default ${DEFAULT-VALUE}, the template's)")
    private long batchingWindowMs = BenchMain.DEFAULT_BATCHING_WINDOW_MS;
    @Option(names = "--max-concurrency", paramLabel = "N",
            description = "ingest invocations at once, for the throughput figure (default ${DEFAULT-VALUE}, the template's)")
    private int maxConcurrency = BenchMain.DEFAULT_MAX_CONCURRENCY;
    @Option(names = "--timer-batching-window-ms", paramLabel = "MS",
            description = "the timer queue's batching window (default ${DEFAULT-VALUE}, the template's TimerMaxBatchingWindowSeconds)")
    private long timerBatchingWindowMs = BenchMain.DEFAULT_TIMER_BATCHING_WINDOW_MS;

    @Override
    protected int run(Console console) throws UsageException {
        BenchMain.Options options;
        try {
            options = new BenchMain.Options(profiles, scale, seed, reps, batchSize, java.time.Duration.ofMillis(batchingWindowMs),
                    maxConcurrency, java.time.Duration.ofMillis(timerBatchingWindowMs));
        } catch (IllegalArgumentException wrong) {
            throw new UsageException(wrong.getMessage());
        }
        QuietLogs.off();
        BenchMain.report(options, console.out());
        return FaninCli.OK;
    }
}
