package dev.fanin.core.machine;

import static dev.fanin.core.machine.EventTimes.max;
import static dev.fanin.core.machine.EventTimes.min;

import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.window.EventTimeMath;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** How sessions grow and merge: the bounds an accepting session spans, and the state of two sessions merged. */
final class SessionMerge {

    /** The most absorbed session ids a merged session keeps in its state ({@code SizeBudget} counts them). */
    static final int MAX_ABSORBED_LISTED = 100;

    private SessionMerge() {
    }

    /**
     * A session that accepts events, spanning every event's {@code [t, t + gap)} as well (what the planner gives when no
     * closed session is near); any other window as it is (a flushed session's bounds are frozen).
     */
    static Interval unclippedBounds(WindowSpec window, WindowState state, List<Event> events) {
        boolean accepting = state.status() == WindowStatus.OPEN || state.status() == WindowStatus.HELD;
        if (!(window instanceof WindowSpec.Session session) || !accepting) {
            return state.bounds();
        }
        Interval bounds = state.bounds();
        for (Event e : events) {
            long t = e.eventTime().toEpochMilli();
            bounds = bounds.span(new Interval(t, EventTimeMath.plus(t, session.gap().toMillis())));
        }
        return bounds;
    }

    /**
     * The survivor with {@code absorbed} merged in (a new event bridged them). The survivor keeps its id; its hard
     * deadline becomes the earlier of the two, so merging never postpones a close.
     */
    static WindowState absorb(WindowState survivor, WindowState absorbed) {
        TransitionTable.require(survivor, Stimulus.ABSORB);
        TransitionTable.require(absorbed, Stimulus.ABSORB);
        WindowState.Builder s = survivor.toBuilder();
        s.bounds = s.bounds.span(absorbed.bounds());
        s.eventIds.addAll(absorbed.eventIds());
        s.aggregates = s.aggregates.merge(absorbed.aggregates());
        // Completeness of sessions is defined by their events: the survivor's expectation, with the union of members
        // and seen counts.
        s.completeness = survivor.completeness().mergedWith(absorbed.completeness());
        s.revisionEvents += absorbed.revisionEvents();
        s.lateEvents += absorbed.lateEvents();
        mergeTimes(s, absorbed);
        if (s.continues == null) {
            s.continues = absorbed.continues();
        }
        Set<String> ids = new HashSet<>(s.absorbed);
        ids.add(absorbed.ref().windowId());
        ids.addAll(absorbed.absorbed());
        // Informational (logs, the simulation's checks): the earliest few are kept, so the state stays bounded.
        s.absorbed = new ArrayList<>(ids.stream().sorted().limit(MAX_ABSORBED_LISTED).toList());
        // The merged session's deadline may be earlier than the chain was armed for: the merge starts a new chain.
        s.timer = null;
        return s.build();
    }

    private static void mergeTimes(WindowState.Builder s, WindowState absorbed) {
        if (s.admitted == null) {
            // The survivor's slot stays where it was counted (the absorbed session's goes back at the merge).
            s.admitted = new Admitted(s.openedAt, s.hardDeadline);
        }
        s.openedAt = min(s.openedAt, absorbed.openedAt());
        s.hardDeadline = min(s.hardDeadline, absorbed.hardDeadline());
        if (s.admitted.equals(new Admitted(s.openedAt, s.hardDeadline))) {
            s.admitted = null; // still the window's own: stored only where a merge moved them
        }
        s.firstEventTime = min(s.firstEventTime, absorbed.firstEventTime());
        s.lastEventTime = max(s.lastEventTime, absorbed.lastEventTime());
        s.lastTakenTime = max(s.lastTakenTime, absorbed.lastTakenTime());
        s.lastArrival = max(s.lastArrival, absorbed.lastArrival());
    }
}
