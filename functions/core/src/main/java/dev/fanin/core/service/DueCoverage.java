package dev.fanin.core.service;

import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps every window that has a due time listed in a due bucket ({@link dev.fanin.core.port.WindowStore}), at or
 * before its stored due time while that time is ahead. A write that gives a window a stored due time it did not have
 * lists the window first, unless this invocation has already listed it at or before that time:
 * <ul>
 *   <li>ingest lists, in one bucket, every window of the batch from this one on (for a session pipeline, every group
 *   key: session ids are known only after loading), so a batch that opens windows writes one bucket, not one index
 *   entry per window. The bucket falls due when the invocation is surely over ({@link #listingDelay}): a sweep that
 *   found a window not created yet would drop it from the listing. The sweeper then lists each window again at its
 *   due time ({@link SweepService});</li>
 *   <li>any other writer (a commit that continues a window, a late claim) lists the one window at its due time.</li>
 * </ul>
 * A stored due time that only moves later keeps its listing (early is harmless); one already past is replaced by a
 * write that happens anyway ({@code WindowMachine}), since the sweeper may have listed the window again later. An
 * ingest listing also covers windows that exist already (a late event reopening a closed window, a due time moved
 * earlier, a merged session): they share the batch's bucket, so the sweeper alone would reach them up to the listing
 * delay late; their timers are not delayed.
 *
 * <p>Only ingest takes a window from no due time (absent, or closed) to one; other writers change the due time of a
 * window that has one, which a sweep visiting it in the meantime lists again. So only ingest listings wait.
 */
final class DueCoverage {

    /**
     * Added to the ingest timeout for requests still in flight when Lambda stops a timed-out invocation (Lambda then
     * re-initialises the execution environment, so nothing of the invocation runs on).
     */
    static final Duration IN_FLIGHT_MARGIN = Duration.ofSeconds(10);

    private final FaninEngine engine;

    DueCoverage(FaninEngine engine) {
        this.engine = engine;
    }

    /**
     * Lists {@code next} before it is written in place of {@code loaded} (null for a new window) when the write changes
     * its stored due time to one not yet covered.
     *
     * @param keyCovers whether a listing of the window's whole key covers it: true for time windows and live sessions
     *                  (the sweeper visits every live session of a listed key), false for a committed session, which
     *                  only its own entry lists
     * @throws StoreUnavailableException when the bucket could not be written: the window write must not happen
     */
    void before(StoredWindow loaded, WindowState next, Followups followups, boolean keyCovers) {
        Instant due = next.dueAt();
        if (due == null || (loaded != null && due.equals(loaded.dueAt()))) {
            return;
        }
        WindowRef ref = next.ref();
        WindowRef key = WindowRef.wholeKey(ref.pipeline(), ref.key());
        List<WindowRef> ahead = followups.dueAhead.getOrDefault(ref.pipeline(), List.of());
        boolean ingesting = !ahead.isEmpty() && (ahead.get(0).equals(ref) || ahead.get(0).equals(key));
        Instant now = engine.clock().instant();
        Instant at = now.plus(listingDelay());
        // An ingest listing is never earlier than the invocation's end, so it covers any due time before that.
        Instant needed = ingesting && due.isBefore(at) ? at : due;
        if (listedBy(followups, ref, needed) || (keyCovers && listedBy(followups, key, needed))) {
            return;
        }
        if (ingesting) {
            List<WindowRef> entries = new ArrayList<>();
            for (WindowRef entry : ahead) {
                if (!listedBy(followups, entry, at)) {
                    entries.add(entry);
                }
            }
            if (!keyCovers) {
                entries.add(ref);
            }
            engine.ports().store().addDue(ref.pipeline(), at, entries, engine.machine(ref.pipeline()).expiryOfWindowOpenedAt(now));
            entries.forEach(entry -> followups.listed.merge(entry, at, DueCoverage::earlier));
        } else {
            engine.ports().store().addDue(ref.pipeline(), due, List.of(ref), next.expiresAt());
            followups.listed.merge(ref, due, DueCoverage::earlier);
        }
    }

    /** How long after an ingest invocation starts its listings fall due: once it is surely over. */
    private Duration listingDelay() {
        return engine.settings().ingestTimeout().plus(IN_FLIGHT_MARGIN);
    }

    private static boolean listedBy(Followups followups, WindowRef entry, Instant due) {
        Instant listed = followups.listed.get(entry);
        return listed != null && !listed.isAfter(due);
    }

    private static Instant earlier(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
