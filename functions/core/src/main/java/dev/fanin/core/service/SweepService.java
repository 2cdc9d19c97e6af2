package dev.fanin.core.service;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduled backstop that makes closure certain: visits every window listed in a due bucket whose time has passed,
 * shard by shard, earliest first. After the visits it lists again, by due time, every window that is still due later
 * (and, at its bucket's time, every entry it could not visit: out of budget, or the store failing), and only then
 * deletes the buckets it handled, so a window with a due time is listed by some bucket at every moment (see
 * {@link dev.fanin.core.port.WindowStore}). Bounded work per run (a window budget and the caller's deadline); what is
 * left is listed for the next run, so a run is resumable by construction, and a bucket that cannot be settled stays. Overlapping runs
 * are safe: every visit writes under the window's version condition, and a window listed twice is visited twice. Each
 * run also retires the admission epochs whose windows are all closed by now ({@link AdmissionEpochs}), so open-window
 * slots left behind by a crash come back.
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
        Run run = new Run(deadline, engine.settings().sweepMaxWindows());
        WindowStore store = engine.ports().store();
        Metrics metrics = engine.ports().metrics();
        for (PipelineConfig pipeline : engine.config().pipelines()) {
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
            sweep.followups.watermarks.put(name, watermark);
            int shards = store.dueShards();
            // Rotate the first shard between runs so a budget cut does not always starve the same shards.
            int first = (int) Math.floorMod(start.getEpochSecond() / 60, (long) shards);
            for (int i = 0; i < shards && !run.exhausted; i++) {
                sweepShard(sweep, (first + i) % shards, run);
            }
            flush.flush(sweep.followups);
            sweep.relistAndRemove();
            run.overdue += sweep.overdue;
            run.oldest = Math.max(run.oldest, sweep.oldest);
            Map<String, String> dims = Map.of("pipeline", name);
            metrics.record(MetricNames.OVERDUE_WINDOWS, sweep.overdue, Metrics.Unit.COUNT, dims);
            metrics.record(MetricNames.OLDEST_OPEN_WINDOW_AGE, sweep.oldest, Metrics.Unit.SECONDS, dims);
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
        metrics.record(MetricNames.WINDOWS_SWEPT, run.visited, Metrics.Unit.COUNT, Map.of("pipeline", "all"));
        return new SweepReport(run.visited, run.claimed, run.overdue, run.oldest, run.exhausted);
    }

    private void sweepShard(PipelineSweep sweep, int shard, Run run) {
        WindowStore store = engine.ports().store();
        String cursor = null;
        do {
            Instant now = engine.clock().instant();
            if (run.spent(now)) {
                run.exhausted = true;
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
                    run.exhausted = true;
                    return;
                }
                List<WindowRef> entries = bucket.entries();
                for (int i = 0; i < entries.size(); i++) {
                    if (run.spent(engine.clock().instant())) {
                        // Out of budget inside a bucket: what is left moves to a new bucket of the same time, so a
                        // bucket longer than the budget is still worked through, run after run.
                        run.exhausted = true;
                        entries.subList(i, entries.size()).forEach(entry -> sweep.relistUnvisited(entry, bucket.dueAt()));
                        break;
                    }
                    if (bucket.dueAt().isBefore(now.minus(engine.settings().overdueAfter()))) {
                        // The bucket has waited past the overdue threshold: the sweeper is behind.
                        sweep.overdue++;
                    }
                    if (!visitEntry(sweep, entries.get(i), run)) {
                        // Not visited (the store was unavailable, or the window kept conflicting): the next run tries again.
                        sweep.relistUnvisited(entries.get(i), bucket.dueAt());
                    }
                    if (sweep.followups.claimed.size() >= 10) {
                        flush.flush(sweep.followups);
                    }
                }
                sweep.handled.add(bucket);
                if (run.exhausted) {
                    return;
                }
            }
            cursor = page.cursor();
        } while (cursor != null);
    }

    /** Visits one entry (a window, or every window of a key that has a due time). @return whether it was handled */
    private boolean visitEntry(PipelineSweep sweep, WindowRef entry, Run run) {
        WindowStore store = engine.ports().store();
        try {
            if (!entry.isWholeKey()) {
                run.visited++;
                return visit(sweep, entry, null, run);
            }
            boolean handled = true;
            run.visited++;
            for (StoredWindow w : store.loadKey(entry.pipeline(), entry.key())) {
                if (w.dueAt() != null) {
                    handled &= visit(sweep, w.ref(), w, run);
                }
            }
            return handled;
        } catch (StoreUnavailableException e) {
            LOG.warn("sweep visit of {} deferred: {}", entry, e.getMessage());
            return false;
        }
    }

    private boolean visit(PipelineSweep sweep, WindowRef ref, StoredWindow preloaded, Run run) {
        Instant now = engine.clock().instant();
        int before = sweep.followups.claimed.size();
        Optional<WindowVisit.Visited> visited = visits.visit(ref, preloaded, sweep.watermark, now, WindowMachine.Visitor.SWEEP,
                sweep.followups);
        run.claimed += sweep.followups.claimed.size() - before;
        if (visited.isEmpty()) {
            return false;
        }
        WindowVisit.Visited v = visited.get();
        if (v.state() != null && v.state().status().isOpen()) {
            sweep.oldest = Math.max(sweep.oldest, Duration.between(v.state().openedAt(), now).toSeconds());
        }
        if (v.nextVisit() != null) {
            sweep.relist(ref, v.nextVisit(), v.state().expiresAt());
        }
        return true;
    }

    /** The run's budget and figures, across pipelines. */
    private static final class Run {
        final Instant deadline;
        final int budget;
        int visited;
        int claimed;
        int overdue;
        long oldest;
        boolean exhausted;

        Run(Instant deadline, int budget) {
            this.deadline = deadline;
            this.budget = budget;
        }

        boolean spent(Instant now) {
            return visited >= budget || !now.isBefore(deadline);
        }
    }

    /** One pipeline's part of a run: what to list again and which buckets are handled. */
    private final class PipelineSweep {
        final String pipeline;
        final long watermark;
        final Followups followups = new Followups();
        /** Windows (and keys) to list again, with the next visit and the expiry the listing must outlive. */
        final Map<WindowRef, Relisting> relisted = new HashMap<>();
        final List<WindowStore.DueBucket> handled = new ArrayList<>();
        int overdue;
        long oldest;

        PipelineSweep(String pipeline, long watermark) {
            this.pipeline = pipeline;
            this.watermark = watermark;
        }

        /** An entry not visited: listed again at its bucket's time, so the next run takes it. */
        void relistUnvisited(WindowRef entry, Instant dueAt) {
            relist(entry, dueAt, engine.machine(pipeline).expiryOfWindowOpenedAt(engine.clock().instant()));
        }

        void relist(WindowRef ref, Instant nextVisit, Instant expiresAt) {
            relisted.merge(ref, new Relisting(nextVisit, expiresAt), Relisting::earlier);
        }

        /**
         * Lists again what is due later, then deletes the handled buckets: in this order, so a crash in between leaves
         * a window listed twice, never not at all. The new buckets are written after the run has read its pages, so a
         * run never picks up its own listings.
         */
        void relistAndRemove() {
            // A window this run claimed and then committed is listed as the commit left it (usually: not at all).
            followups.committed.forEach((ref, next) -> {
                Relisting pending = relisted.get(ref);
                if (pending != null) {
                    if (next == null) {
                        relisted.remove(ref);
                    } else {
                        relisted.put(ref, new Relisting(next, pending.expiresAt()));
                    }
                }
            });
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

    /** A window to list again: when, and until when the listing must outlive the window. */
    private record Relisting(Instant nextVisit, Instant expiresAt) {

        static Relisting earlier(Relisting a, Relisting b) {
            return new Relisting(a.nextVisit().isBefore(b.nextVisit()) ? a.nextVisit() : b.nextVisit(),
                    a.expiresAt().isAfter(b.expiresAt()) ? a.expiresAt() : b.expiresAt());
        }
    }
}
