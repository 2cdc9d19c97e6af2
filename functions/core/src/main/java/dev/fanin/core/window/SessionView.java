package dev.fanin.core.window;

import java.util.Objects;

/**
 * A stored session of one group key, as the planner needs to see it.
 *
 * @param windowId the session's id ({@link WindowRef#sessionId(long)})
 * @param bounds   {@code [first event time, last event time + gap)}, half-open, event time
 * @param status   its life-cycle status: OPEN and HELD sessions accept events and can merge; CLAIMED and CLOSED
 *                 sessions take late events (corrections); MERGED sessions are ignored
 */
public record SessionView(String windowId, Interval bounds, WindowStatus status) {

    public SessionView {
        Objects.requireNonNull(windowId, "windowId");
        Objects.requireNonNull(bounds, "bounds");
        Objects.requireNonNull(status, "status");
    }

    /** OPEN or HELD: the session still accepts on-time events and may grow or absorb its neighbours. */
    public boolean acceptsEvents() {
        return status == WindowStatus.OPEN || status == WindowStatus.HELD;
    }

    /** CLAIMED or CLOSED: an event falling into it is late for that window id (a correction, or too late). */
    public boolean isFlushed() {
        return status == WindowStatus.CLAIMED || status == WindowStatus.CLOSED;
    }
}
