package dev.fanin.core.service;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.watermark.Watermark;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The scheduled backstop that makes closure certain: visits every window listed in a due bucket whose time has passed,
 * shard by shard, earliest first. After the visits it lists again, by due time, every window that is still due later
 * (and, at its bucket's time, every entry it could not visit: out of budget, or the store failing), and only then
 * deletes the buckets it handled, so a window with a due time is listed by some bucket at every moment (see
 * {@link dev.fanin.core.port.WindowStore}). Bounded work per run (a window budget and the caller's deadline); what is
 * left is listed for the next run, so a run is resumable by construction, and a bucket that cannot be settled stays.
 * Overlapping runs are safe: every visit writes under the window's version condition, and a window listed twice is
 * visited twice. Shards may be swept in parallel ({@link FaninSettings#sweepParallelism()}): each shard has its own
 * follow-ups, and the listings are settled once per pipeline. Each run also retires the admission epochs whose windows
 * are all closed by now ({@link AdmissionEpochs}), so open-window slots left behind by a crash come back.
 */
public final class SweepService {

    private static final Logger LOG = LoggerFactory.getLogger(SweepService.class);

    private final FaninEngine engine;
    private final SweepEntries entryVisits;
    private final FlushService flush;
    private final ExecutorService shardThreads;

    /** A sweeper that works on one shard after the other ({@link FaninSettings#sweepParallelism()} must be 1). */
    public SweepService(FaninEngine engine) {
        this(engine, null);
    }

    /**
     * @param shardThreads the threads shards are swept on when {@link FaninSettings#sweepParallelism()} is above 1
     *                     (the caller builds and owns them, once per process); null when it is 1
     */
    public SweepService(FaninEngine engine, ExecutorService shardThreads) {
        if (engine.settings().sweepParallelism() > 1 && shardThreads == null) {
            throw new IllegalArgumentException("sweepParallelism " + engine.settings().sweepParallelism()
                    + " needs threads to sweep shards on; pass an ExecutorService, or set sweepParallelism to 1");
        }
        this.engine = engine;
        this.entryVisits = new SweepEntries(engine);
        this.flush = new FlushService(engine);
        this.shardThreads = shardThreads;
    }

    /**
     * @param deadline processing time by which the run must stop taking new windows (the function's timeout minus
     *                 a margin for the flushes in flight)
     */
    public SweepReport sweep(Instant deadline) {
        return sweep(deadline, false);
    }

    /**
     * A run over every shard a deployment could have written, the configured ones and those past them (the hourly
     * schedule's): where a deployment with more shards left buckets, so lowering DueShards strands no window.
     */
    public SweepReport sweepEveryShard(Instant deadline) {
        return sweep(deadline, true);
    }

    private SweepReport sweep(Instant deadline, boolean everyShard) {
        Instant start = engine.clock().instant();
        WindowStore store = engine.ports().store();
        SweepPlan plan = SweepPlan.of(engine.settings(), store.dueShards(), start, deadline, everyShard);
        SweepRun run = new SweepRun(plan);
        for (PipelineConfig pipeline : SweepPlan.inTurn(engine.sweptPipelines(), start, everyShard)) {
            String name = pipeline.name();
            Watermark watermark;
            try {
                watermark = engine.watermarkAt(name, start);
            } catch (StoreUnavailableException e) {
                // One throttled read skips this pipeline for this run only; the others are still swept.
                LOG.warn("sweep of pipeline {} skipped: watermark unavailable: {}", name, e.getMessage());
                continue;
            }
            PipelineSweep sweep = new PipelineSweep(engine, flush, name, watermark);
            sweepShards(sweep, plan, run);
            sweep.relistAndRemove();
            run.addFigures(sweep.overdue(), sweep.oldest(), sweep.pastDeadline());
            recordFigures(pipeline, sweep, start);
        }
        engine.ports().metrics().record(MetricNames.WINDOWS_SWEPT, run.visited(), Metrics.Unit.COUNT, Map.of("pipeline", "all"));
        return run.report();
    }

    /** The pipeline's sweep figures, and its open-window slots after retiring the epochs whose windows are closed. */
    private void recordFigures(PipelineConfig pipeline, PipelineSweep sweep, Instant start) {
        String name = pipeline.name();
        WindowStore store = engine.ports().store();
        Metrics metrics = engine.ports().metrics();
        Map<String, String> dims = Map.of("pipeline", name);
        metrics.record(MetricNames.OVERDUE_WINDOWS, sweep.overdue(), Metrics.Unit.COUNT, dims);
        metrics.record(MetricNames.OLDEST_OPEN_WINDOW_AGE, sweep.oldest(), Metrics.Unit.SECONDS, dims);
        metrics.record(MetricNames.SECONDS_PAST_HARD_DEADLINE, sweep.pastDeadline(), Metrics.Unit.SECONDS, dims);
        try {
            long returned = store.retireEpochs(name, AdmissionEpochs.retirableBefore(start));
            if (returned != 0) {
                LOG.info("pipeline {}: {} open-window slots left behind by interrupted invocations returned", name, returned);
            }
            metrics.record(MetricNames.OPEN_WINDOWS, store.openWindows(name), Metrics.Unit.COUNT, dims);
        } catch (StoreUnavailableException e) {
            LOG.warn("open-window slots of {} unavailable: {}", name, e.getMessage());
        }
    }

    /** Sweeps the shards in the plan's order, one after the other or {@code threads} at a time. */
    private void sweepShards(PipelineSweep sweep, SweepPlan plan, SweepRun run) {
        if (plan.threads() <= 1) {
            // One after the other, with one set of follow-ups: one flush (and emission call) for the whole pipeline.
            Followups followups = sweep.followups();
            for (int shard : plan.shardOrder()) {
                if (run.exhausted()) {
                    break;
                }
                sweepShard(sweep, shard, followups, run);
            }
            sweep.flush(followups);
            return;
        }
        // The invocation's log context (request id, function) goes with each shard, so that its lines say whose they are.
        Map<String, String> logContext = MDC.getCopyOfContextMap();
        List<Future<?>> tasks = new ArrayList<>();
        for (int shard : plan.shardOrder()) {
            tasks.add(shardThreads.submit(() -> {
                if (logContext != null) {
                    MDC.setContextMap(logContext);
                }
                try {
                    if (!run.exhausted()) {
                        Followups followups = sweep.followups();
                        sweepShard(sweep, shard, followups, run);
                        sweep.flush(followups);
                    }
                } finally {
                    MDC.clear();
                }
            }));
        }
        awaitShards(sweep, tasks);
    }

    /**
     * Waits for every shard. As in the sequential sweep, a failure fails the run without settling (its buckets stay
     * for the next run), and the function counts and reports it; an Error is a crash, so the other shards stop too,
     * as they would with the process.
     */
    private static void awaitShards(PipelineSweep sweep, List<Future<?>> tasks) {
        Throwable failure = null;
        try {
            for (Future<?> task : tasks) {
                try {
                    task.get();
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                        if (failure instanceof Error) {
                            tasks.forEach(t -> t.cancel(true));
                        }
                    }
                } catch (CancellationException e) {
                    // Cancelled after another shard crashed: that crash is the run's failure.
                }
            }
        } catch (InterruptedException e) {
            tasks.forEach(t -> t.cancel(true));
            Thread.currentThread().interrupt();
            throw new IllegalStateException("sweep of pipeline " + sweep.pipeline + " interrupted", e);
        }
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure != null) {
            throw failure instanceof RuntimeException runtime ? runtime : new IllegalStateException(failure);
        }
    }

    /**
     * One shard: its pages of due buckets, each entry visited. Flushes {@code followups} every ten claims; the caller
     * flushes the rest.
     */
    private void sweepShard(PipelineSweep sweep, int shard, Followups followups, SweepRun run) {
        String cursor = null;
        do {
            Instant now = engine.clock().instant();
            if (run.spent(now)) {
                return;
            }
            WindowStore.DuePage page;
            try {
                page = engine.ports().store().due(sweep.pipeline, shard, now, engine.settings().sweepPageSize(), cursor);
            } catch (StoreUnavailableException e) {
                LOG.warn("sweep of pipeline {} shard {} skipped: {}", sweep.pipeline, shard, e.getMessage());
                return;
            }
            for (WindowStore.DueBucket bucket : page.buckets()) {
                if (run.spent(engine.clock().instant()) || !sweepBucket(sweep, bucket, now, followups, run)) {
                    return;
                }
            }
            cursor = page.cursor();
        } while (cursor != null);
    }

    /**
     * Visits every entry of one bucket and settles it. Out of budget inside the bucket, what is left moves to a new
     * bucket of the same time, so a bucket longer than the budget is still worked through, run after run.
     *
     * @return whether the run has budget left for the next bucket
     */
    private boolean sweepBucket(PipelineSweep sweep, WindowStore.DueBucket bucket, Instant now, Followups followups, SweepRun run) {
        List<WindowRef> entries = bucket.entries();
        // A bucket waiting past the overdue threshold means the sweeper is behind: its open windows are overdue.
        boolean late = bucket.dueAt().isBefore(now.minus(engine.settings().overdueAfter()));
        for (int i = 0; i < entries.size(); i++) {
            WindowRef entry = entries.get(i);
            if (sweep.visitedSince(entry, bucket.dueAt())) {
                // Nothing to read: this run's visit of the entry saw every write this listing covers.
                continue;
            }
            if (!run.take(engine.clock().instant())) {
                entries.subList(i, entries.size()).forEach(rest -> sweep.relistUnvisited(rest, bucket.dueAt()));
                if (late) {
                    sweep.countOverdue(entries.size() - i);
                }
                break;
            }
            SweepEntries.Visited visit = entryVisits.visit(sweep, followups, entry, run);
            if (!visit.handled()) {
                // Not visited (the store was unavailable, the window kept conflicting, or it failed): the next run
                // tries again.
                sweep.relistUnvisited(entry, bucket.dueAt());
            }
            if (late && (visit.foundOpen() || !visit.handled())) {
                sweep.countOverdue(1);
            }
            if (followups.claimed.size() >= 10 || followups.claimLeaseHalfUsed(engine.clock().instant(), engine.settings().lease())) {
                sweep.flush(followups);
            }
        }
        sweep.handled(bucket);
        return !run.exhausted();
    }
}
