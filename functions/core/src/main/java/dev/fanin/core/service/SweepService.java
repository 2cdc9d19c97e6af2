package dev.fanin.core.service;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WindowStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduled backstop that makes closure certain: visits every window whose due time has passed, through the
 * sparse sharded due index, shard by shard, earliest due first. Bounded work per run (a window budget and the
 * caller's deadline); what is left is still due and is taken by the next run, so a run is resumable by
 * construction. Overlapping runs are safe: every visit writes under the window's version condition. Each run also
 * retires the admission epochs whose windows are all closed by now ({@link AdmissionEpochs}), so open-window slots left
 * behind by a crash come back.
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
        int budget = engine.settings().sweepMaxWindows();
        int visited = 0;
        int claimed = 0;
        int overdue = 0;
        long oldest = 0;
        boolean exhausted = false;
        WindowStore store = engine.ports().store();
        Metrics metrics = engine.ports().metrics();
        for (PipelineConfig pipeline : engine.config().pipelines()) {
            String name = pipeline.name();
            Followups followups = new Followups();
            long watermark;
            try {
                watermark = engine.watermark(name, Long.MIN_VALUE, start);
            } catch (StoreUnavailableException e) {
                // One throttled read skips this pipeline for this run only; the others are still swept.
                LOG.warn("sweep of pipeline {} skipped: watermark unavailable: {}", name, e.getMessage());
                continue;
            }
            followups.watermarks.put(name, watermark);
            int pipelineOverdue = 0;
            long pipelineOldest = 0;
            int shards = store.dueShards();
            // Rotate the first shard between runs so a budget cut does not always starve the same shards.
            int first = (int) Math.floorMod(start.getEpochSecond() / 60, (long) shards);
            for (int i = 0; i < shards && !exhausted; i++) {
                int shard = (first + i) % shards;
                String cursor = null;
                do {
                    Instant now = engine.clock().instant();
                    if (visited >= budget || !now.isBefore(deadline)) {
                        exhausted = true;
                        break;
                    }
                    WindowStore.DuePage page;
                    try {
                        page = store.due(name, shard, now, Math.min(engine.settings().sweepPageSize(), budget - visited), cursor);
                    } catch (StoreUnavailableException e) {
                        LOG.warn("sweep of pipeline {} shard {} skipped: {}", name, shard, e.getMessage());
                        break;
                    }
                    for (WindowStore.DueEntry entry : page.entries()) {
                        if (visited >= budget || !engine.clock().instant().isBefore(deadline)) {
                            exhausted = true;
                            break;
                        }
                        visited++;
                        // An index entry may be early by up to the refresh period (it is moved forward lazily), so
                        // only an entry older than that and the overdue threshold together is surely overdue.
                        if (entry.dueAt().isBefore(now.minus(engine.settings().overdueAfter()).minus(WindowMachine.DEFAULT_INDEX_REFRESH))) {
                            pipelineOverdue++;
                        }
                        try {
                            int before = followups.claimed.size();
                            Optional<WindowState> after = visits.visit(entry.ref(), watermark, engine.clock().instant(), followups);
                            claimed += followups.claimed.size() - before;
                            if (after.isPresent() && after.get().status().isOpen()) {
                                pipelineOldest = Math.max(pipelineOldest, Duration.between(after.get().openedAt(), now).toSeconds());
                            }
                        } catch (StoreUnavailableException e) {
                            LOG.warn("sweep visit of {} deferred: {}", entry.ref(), e.getMessage());
                        }
                        if (followups.claimed.size() >= 10) {
                            flush.flush(followups);
                        }
                    }
                    cursor = page.cursor();
                } while (cursor != null && !exhausted);
            }
            flush.flush(followups);
            overdue += pipelineOverdue;
            oldest = Math.max(oldest, pipelineOldest);
            Map<String, String> dims = Map.of("pipeline", name);
            metrics.record(MetricNames.OVERDUE_WINDOWS, pipelineOverdue, Metrics.Unit.COUNT, dims);
            metrics.record(MetricNames.OLDEST_OPEN_WINDOW_AGE, pipelineOldest, Metrics.Unit.SECONDS, dims);
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
        metrics.record(MetricNames.WINDOWS_SWEPT, visited, Metrics.Unit.COUNT, Map.of("pipeline", "all"));
        return new SweepReport(visited, claimed, overdue, oldest, exhausted);
    }
}
