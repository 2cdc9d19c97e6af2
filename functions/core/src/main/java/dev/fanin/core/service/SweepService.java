package dev.fanin.core.service;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
    private final WindowVisit visits;
    private final FlushService flush;

    public SweepService(FaninEngine engine) {
        this.engine = engine;
        this.visits = new WindowVisit(engine);
        this.flush = new FlushService(engine);
    }

    /**
     * @param deadline processing time by which the run must stop taking new windows (the function's timeout minus
     *                 a margin for the flushes in flight)
     */
    public SweepReport sweep(Instant deadline) {
        Instant start = engine.clock().instant();
        // The budget is per shard thread, so that more threads buy more visits.
        Run run = new Run(deadline, engine.settings().sweepMaxWindows() * Math.max(1, engine.settings().sweepParallelism()));
        WindowStore store = engine.ports().store();
        Metrics metrics = engine.ports().metrics();
        for (PipelineConfig pipeline : engine.sweptPipelines()) {
            String name = pipeline.name();
            long watermark;
            try {
                watermark = engine.watermark(name, Long.MIN_VALUE, start);
            } catch (StoreUnavailableException e) {
                // One throttled read skips this pipeline for this run only; the others are still swept.
                LOG.warn("sweep of pipeline {} skipped: watermark unavailable: {}", name, e.getMessage());
                continue;
            }
            PipelineSweep sweep = new PipelineSweep(name, watermark);
            int shards = store.dueShards();
            // Rotate the first shard between runs so a budget cut does not always starve the same shards.
            int first = (int) Math.floorMod(start.getEpochSecond() / 60, (long) shards);
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < shards; i++) {
                order.add((first + i) % shards);
            }
            sweepShards(sweep, order, run);
            sweep.relistAndRemove();
            run.addFigures(sweep.overdue(), sweep.oldest(), sweep.pastDeadline());
            Map<String, String> dims = Map.of("pipeline", name);
            metrics.record(MetricNames.OVERDUE_WINDOWS, sweep.overdue(), Metrics.Unit.COUNT, dims);
            metrics.record(MetricNames.OLDEST_OPEN_WINDOW_AGE, sweep.oldest(), Metrics.Unit.SECONDS, dims);
            metrics.record(MetricNames.SECONDS_PAST_HARD_DEADLINE, sweep.pastDeadline(), Metrics.Unit.SECONDS, dims);
            try {
                long returned = store.retireEpochs(name, AdmissionEpochs.retirableBefore(start, pipeline));
                if (returned != 0) {
                    LOG.info("pipeline {}: {} open-window slots left behind by interrupted invocations returned", name, returned);
                }
                metrics.record(MetricNames.OPEN_WINDOWS, store.openWindows(name), Metrics.Unit.COUNT, dims);
            } catch (StoreUnavailableException e) {
                LOG.warn("open-window slots of {} unavailable: {}", name, e.getMessage());
            }
        }
        metrics.record(MetricNames.WINDOWS_SWEPT, run.visited(), Metrics.Unit.COUNT, Map.of("pipeline", "all"));
        return run.report();
    }

    /** Sweeps the shards in order, or with {@code sweepParallelism} shards at a time. */
    private void sweepShards(PipelineSweep sweep, List<Integer> order, Run run) {
        int parallelism = Math.min(engine.settings().sweepParallelism(), order.size());
        if (parallelism <= 1) {
            // One after the other, with one set of follow-ups: one flush (and emission call) for the whole pipeline.
            Followups followups = sweep.followups();
            for (int shard : order) {
                if (run.exhausted()) {
                    break;
                }
                sweepShard(sweep, shard, followups, run);
            }
            sweep.flush(followups);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(parallelism, task -> {
            Thread thread = new Thread(task, "fanin-sweep-" + sweep.pipeline);
            thread.setDaemon(true);
            return thread;
        });
        // The invocation's log context (request id, function) goes with each shard, so that its lines say whose they are.
        Map<String, String> logContext = MDC.getCopyOfContextMap();
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (int shard : order) {
                tasks.add(pool.submit(() -> {
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
            Throwable failure = null;
            for (Future<?> task : tasks) {
                try {
                    task.get();
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                        // An Error is a crash: the other shards stop too, as they would with the process.
                        if (failure instanceof Error) {
                            pool.shutdownNow();
                        }
                    }
                }
            }
            if (failure != null) {
                // As in the sequential sweep: the run fails without settling (its buckets stay for the next run), and
                // the function counts and reports the failure.
                if (failure instanceof Error error) {
                    throw error;
                }
                throw failure instanceof RuntimeException runtime ? runtime : new IllegalStateException(failure);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("sweep of pipeline " + sweep.pipeline + " interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One shard: its pages of due buckets, each entry visited. Flushes {@code followups} every ten claims; the caller
     * flushes the rest.
     */
    private void sweepShard(PipelineSweep sweep, int shard, Followups followups, Run run) {
        WindowStore store = engine.ports().store();
        String cursor = null;
        do {
            Instant now = engine.clock().instant();
            if (run.spent(now)) {
                return;
            }
            WindowStore.DuePage page;
            try {
                page = store.due(sweep.pipeline, shard, now, engine.settings().sweepPageSize(), cursor);
            } catch (StoreUnavailableException e) {
                LOG.warn("sweep of pipeline {} shard {} skipped: {}", sweep.pipeline, shard, e.getMessage());
                return;
            }
            for (WindowStore.DueBucket bucket : page.buckets()) {
                if (run.spent(engine.clock().instant())) {
                    return;
                }
                List<WindowRef> entries = bucket.entries();
                // A bucket waiting past the overdue threshold means the sweeper is behind: its open windows are overdue.
                boolean late = bucket.dueAt().isBefore(now.minus(engine.settings().overdueAfter()));
                for (int i = 0; i < entries.size(); i++) {
                    if (!run.take(engine.clock().instant())) {
                        // Out of budget inside a bucket: what is left moves to a new bucket of the same time, so a
                        // bucket longer than the budget is still worked through, run after run.
                        entries.subList(i, entries.size()).forEach(entry -> sweep.relistUnvisited(entry, bucket.dueAt()));
                        if (late) {
                            sweep.countOverdue(entries.size() - i);
                        }
                        break;
                    }
                    EntryVisit visit = visitEntry(sweep, followups, entries.get(i), run);
                    if (!visit.handled()) {
                        // Not visited (the store was unavailable, the window kept conflicting, or it failed): the next run
                        // tries again.
                        sweep.relistUnvisited(entries.get(i), bucket.dueAt());
                    }
                    if (late && (visit.foundOpen() || !visit.handled())) {
                        sweep.countOverdue(1);
                    }
                    if (followups.claimed.size() >= 10) {
                        sweep.flush(followups);
                    }
                }
                sweep.handled(bucket);
                if (run.exhausted()) {
                    return;
                }
            }
            cursor = page.cursor();
        } while (cursor != null);
    }

    /** What visiting one due-bucket entry did: whether it was handled, and whether it found a window still open. */
    private record EntryVisit(boolean handled, boolean foundOpen) { }

    /** Visits one entry (a window, or every live session of a key that has a due time). */
    private EntryVisit visitEntry(PipelineSweep sweep, Followups followups, WindowRef entry, Run run) {
        try {
            Instant now = engine.clock().instant();
            int before = followups.claimed.size();
            Map<WindowRef, WindowVisit.Visited> visited = new LinkedHashMap<>();
            if (entry.isWholeKey()) {
                long readAt = Followups.nextSequence();
                LiveSessions live = engine.ports().store().loadLive(entry.pipeline(), entry.key());
                Optional<Map<WindowRef, WindowVisit.Visited>> sessions = visits.visitLive(entry.pipeline(), entry.key(), live, readAt,
                        sweep.watermark, now, followups);
                if (sessions.isEmpty()) {
                    return new EntryVisit(false, false);
                }
                visited.putAll(sessions.get());
            } else {
                Optional<WindowVisit.Visited> window = visits.visit(entry, null, 0, sweep.watermark, now, WindowMachine.Visitor.SWEEP, followups);
                if (window.isEmpty()) {
                    return new EntryVisit(false, false);
                }
                visited.put(entry, window.get());
            }
            run.addClaimed(followups.claimed.size() - before);
            boolean foundOpen = false;
            for (Map.Entry<WindowRef, WindowVisit.Visited> v : visited.entrySet()) {
                foundOpen |= settle(sweep, v.getKey(), v.getValue(), now);
            }
            return new EntryVisit(true, foundOpen);
        } catch (StoreUnavailableException e) {
            LOG.warn("sweep visit of {} deferred: {}", entry, e.getMessage());
            return new EntryVisit(false, false);
        } catch (RuntimeException e) {
            // One entry that cannot be visited (a bug, a state the code cannot read) must not stop the sweep of the
            // others; it is listed again, so it keeps showing as overdue until it is fixed.
            LOG.error("sweep visit of {} failed; it is listed again for the next run", entry, e);
            return new EntryVisit(false, false);
        }
    }

    /** Records what a visit found: the window's age if it is open, and its next listing. Returns whether it is open. */
    private boolean settle(PipelineSweep sweep, WindowRef ref, WindowVisit.Visited v, Instant now) {
        boolean open = v.state() != null && v.state().status().isOpen();
        if (open) {
            sweep.oldest(Duration.between(v.state().openedAt(), now).toSeconds());
        }
        if (v.state() != null && v.state().holdsSlot()) {
            // Not closed for the first time yet (a correction's claim does not count: it comes after the deadline).
            sweep.pastDeadline(Duration.between(v.state().hardDeadline(), now).toSeconds());
        }
        if (v.nextVisit() != null) {
            sweep.relist(ref, v.nextVisit(), v.state().expiresAt(), v.readAt());
        }
        return open;
    }

    /** The run's budget and figures, across pipelines and shards (shards may run in parallel). */
    private static final class Run {
        private final Instant deadline;
        private final int budget;
        private int visited;
        private int claimed;
        private int overdue;
        private long oldest;
        private long pastDeadline;
        private boolean exhausted;

        Run(Instant deadline, int budget) {
            this.deadline = deadline;
            this.budget = budget;
        }

        /** Whether the budget or the time is spent (and if so, marks the run exhausted). */
        synchronized boolean spent(Instant now) {
            if (visited >= budget || !now.isBefore(deadline)) {
                exhausted = true;
            }
            return exhausted;
        }

        /** Takes one visit from the budget, unless it is spent. */
        synchronized boolean take(Instant now) {
            if (spent(now)) {
                return false;
            }
            visited++;
            return true;
        }

        synchronized boolean exhausted() {
            return exhausted;
        }

        synchronized int visited() {
            return visited;
        }

        synchronized void addClaimed(int n) {
            claimed += n;
        }

        synchronized void addFigures(int pipelineOverdue, long pipelineOldest, long pipelinePastDeadline) {
            overdue += pipelineOverdue;
            oldest = Math.max(oldest, pipelineOldest);
            pastDeadline = Math.max(pastDeadline, pipelinePastDeadline);
        }

        synchronized SweepReport report() {
            return new SweepReport(visited, claimed, overdue, oldest, pastDeadline, exhausted);
        }
    }

    /**
     * One pipeline's part of a run, shared by its shards: what to list again, which buckets are handled, and the
     * pipeline's figures.
     */
    private final class PipelineSweep {
        final String pipeline;
        final long watermark;
        /** Windows (and keys) to list again, with the next visit and the expiry the listing must outlive. */
        private final Map<WindowRef, Relisting> relisted = new HashMap<>();
        /** The latest commit of each window this run committed. */
        private final Map<WindowRef, Followups.Committed> commits = new HashMap<>();
        private final List<WindowStore.DueBucket> handled = new ArrayList<>();
        private int overdue;
        private long oldest;
        private long pastDeadline;

        PipelineSweep(String pipeline, long watermark) {
            this.pipeline = pipeline;
            this.watermark = watermark;
        }

        /** Fresh follow-ups that know the pipeline's watermark. */
        Followups followups() {
            Followups followups = new Followups();
            followups.watermarks.put(pipeline, watermark);
            return followups;
        }

        /** An entry not visited: listed again at its bucket's time, so the next run takes it; no commit replaces it. */
        synchronized void relistUnvisited(WindowRef entry, Instant dueAt) {
            Instant expiresAt = engine.machine(pipeline).expiryOfWindowOpenedAt(engine.clock().instant());
            relisted.merge(entry, new Relisting(dueAt, expiresAt, Long.MAX_VALUE), Relisting::earlier);
        }

        /**
         * Plans to list {@code ref} at {@code nextVisit}, as read at {@code readAt}; a commit of this run written after
         * that read decides instead (it is the newer state).
         */
        synchronized void relist(WindowRef ref, Instant nextVisit, Instant expiresAt, long readAt) {
            Relisting relisting = newest(ref, new Relisting(nextVisit, expiresAt, readAt));
            if (relisting != null) {
                relisted.merge(ref, relisting, Relisting::earlier);
            }
        }

        /**
         * {@code planned} as this run's latest commit of {@code ref} leaves it: unchanged if it rests on a read drawn
         * after the commit was written, else the commit's next visit (null: none).
         */
        private Relisting newest(WindowRef ref, Relisting planned) {
            Followups.Committed commit = commits.get(ref);
            if (commit == null || commit.sequence() < planned.sequence()) {
                return planned;
            }
            return commit.nextVisit() == null ? null : new Relisting(commit.nextVisit(), planned.expiresAt(), commit.sequence());
        }

        synchronized void handled(WindowStore.DueBucket bucket) {
            handled.add(bucket);
        }

        synchronized void countOverdue(int entries) {
            overdue += entries;
        }

        synchronized int overdue() {
            return overdue;
        }

        synchronized void oldest(long seconds) {
            oldest = Math.max(oldest, seconds);
        }

        synchronized long oldest() {
            return oldest;
        }

        /** Records a window not yet closed {@code seconds} past its hard deadline (negative: before it). */
        synchronized void pastDeadline(long seconds) {
            pastDeadline = Math.max(pastDeadline, seconds);
        }

        synchronized long pastDeadline() {
            return pastDeadline;
        }

        /**
         * Emits and commits what a shard claimed, then lists each window it committed as the commit left it (usually:
         * not at all) instead of at its lease end. Only listings that rest on a read drawn before the commit was written
         * are replaced: a window a late event reopened after the commit, and that this run read since, keeps the
         * listing of that read. Commits are kept for the rest of the run, so that a listing planned later from an older
         * read (another shard's) is replaced too.
         */
        void flush(Followups followups) {
            SweepService.this.flush.flush(followups);
            synchronized (this) {
                followups.committed.forEach((ref, commit) -> {
                    commits.merge(ref, commit, (x, y) -> x.sequence() > y.sequence() ? x : y);
                    relisted.computeIfPresent(ref, (r, pending) -> newest(r, pending));
                });
            }
            followups.committed.clear();
        }

        /**
         * Lists again what is due later, then deletes the handled buckets: in this order, so a crash in between leaves
         * a window listed twice, never not at all. The new buckets are written after the run has read its pages, so a
         * run never picks up its own listings.
         */
        synchronized void relistAndRemove() {
            long grid = WindowMachine.DEFAULT_DUE_GRANULARITY.toMillis();
            // Early by less than the grid, so that windows due within one step share a bucket.
            TreeMap<Instant, List<WindowRef>> bySlot = new TreeMap<>();
            Map<Instant, Instant> expiries = new HashMap<>();
            relisted.forEach((ref, r) -> {
                Instant slot = Instant.ofEpochMilli(Math.floorDiv(r.nextVisit().toEpochMilli(), grid) * grid);
                bySlot.computeIfAbsent(slot, s -> new ArrayList<>()).add(ref);
                expiries.merge(slot, r.expiresAt(), (x, y) -> x.isAfter(y) ? x : y);
            });
            WindowStore store = engine.ports().store();
            try {
                for (Map.Entry<Instant, List<WindowRef>> slot : bySlot.entrySet()) {
                    store.addDue(pipeline, slot.getKey(), slot.getValue(), expiries.get(slot.getKey()));
                }
                if (!handled.isEmpty()) {
                    store.removeDue(handled);
                }
            } catch (StoreUnavailableException e) {
                // The handled buckets stay and are handled again by the next run: a visit is idempotent.
                LOG.warn("due buckets of pipeline {} not settled, the next sweep handles them again: {}", pipeline, e.getMessage());
            }
        }
    }

    /** A window to list again: when, until when the listing must outlive the window, and when it was recorded. */
    private record Relisting(Instant nextVisit, Instant expiresAt, long sequence) {

        static Relisting earlier(Relisting a, Relisting b) {
            return new Relisting(a.nextVisit().isBefore(b.nextVisit()) ? a.nextVisit() : b.nextVisit(),
                    a.expiresAt().isAfter(b.expiresAt()) ? a.expiresAt() : b.expiresAt(), Math.max(a.sequence(), b.sequence()));
        }
    }
}
