package dev.fanin.core.service;

import dev.fanin.core.machine.Visitor;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sweeper's visit of one due-bucket entry: a window, or every live session of a key. It decides each window afresh
 * ({@link WindowVisit}), records what the pipeline's figures need, plans each window's next listing, and records the
 * entry as settled by the run when nothing it read is due before that listing ({@link PipelineSweep#visitedSince}).
 */
final class SweepEntries {

    private static final Logger LOG = LoggerFactory.getLogger(SweepEntries.class);

    private final FaninEngine engine;
    private final WindowVisit visits;

    SweepEntries(FaninEngine engine) {
        this.engine = engine;
        this.visits = new WindowVisit(engine);
    }

    /** What visiting one due-bucket entry did: whether it was handled, and whether it found a window still open. */
    record Visited(boolean handled, boolean foundOpen) {

        static final Visited NOT_HANDLED = new Visited(false, false);
    }

    /** Visits one entry (a window, or every live session of a key that has a due time). */
    Visited visit(PipelineSweep sweep, Followups followups, WindowRef entry, SweepRun run) {
        try {
            Instant now = engine.clock().instant();
            int before = followups.claimed.size();
            Map<WindowRef, WindowVisit.Visited> visited = new LinkedHashMap<>();
            Visit visit = new Visit(sweep.watermark, now, Visitor.SWEEP, followups);
            if (entry.isWholeKey()) {
                long readAt = engine.nextSequence();
                LiveSessions live = engine.ports().store().loadLive(entry.pipeline(), entry.key());
                Optional<Map<WindowRef, WindowVisit.Visited>> sessions = visits.visitLive(live, readAt, visit);
                if (sessions.isEmpty()) {
                    return Visited.NOT_HANDLED;
                }
                visited.putAll(sessions.get());
            } else {
                Optional<WindowVisit.Visited> window = visits.visit(entry, visit);
                if (window.isEmpty()) {
                    return Visited.NOT_HANDLED;
                }
                visited.put(entry, window.get());
            }
            run.addClaimed(followups.claimed.size() - before);
            return new Visited(true, settleAll(sweep, entry, visited, now));
        } catch (StoreUnavailableException e) {
            LOG.warn("sweep visit of {} deferred: {}", entry, e.getMessage());
            return Visited.NOT_HANDLED;
        } catch (RuntimeException e) {
            // One entry that cannot be visited (a bug, a state the code cannot read) must not stop the sweep of the
            // others; it is listed again, so it keeps showing as overdue until it is fixed.
            LOG.error("sweep visit of {} failed; it is listed again for the next run", entry, e);
            return Visited.NOT_HANDLED;
        }
    }

    /**
     * Settles every window the visit of {@code entry} read, and records the entry as settled by this run when none of
     * them is due again before its next listing. Returns whether one is open.
     */
    private static boolean settleAll(PipelineSweep sweep, WindowRef entry, Map<WindowRef, WindowVisit.Visited> visited, Instant now) {
        boolean foundOpen = false;
        boolean nothingDue = true;
        for (Map.Entry<WindowRef, WindowVisit.Visited> v : visited.entrySet()) {
            foundOpen |= settle(sweep, v.getKey(), v.getValue(), now);
            nothingDue &= v.getValue().nextVisit() == null || v.getValue().nextVisit().isAfter(now);
        }
        if (nothingDue) {
            sweep.settled(entry, now);
        }
        return foundOpen;
    }

    /** Records what a visit found: the window's age if it is open, and its next listing. Returns whether it is open. */
    private static boolean settle(PipelineSweep sweep, WindowRef ref, WindowVisit.Visited v, Instant now) {
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
}
