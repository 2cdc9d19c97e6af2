package dev.fanin.core.window;

import java.util.Objects;

/**
 * A stored session of one group key, as the planner needs to see it.
 *
 * @param windowId  the session's id ({@link WindowRef#sessionId(long)})
 * @param bounds    half-open, event time: {@code [first event time, last event time + gap)} while the session accepts
 *                  events (clipped at a closed neighbour's start); frozen once it is closed
 * @param status    its life-cycle status: OPEN and HELD sessions accept events and can merge; CLAIMED and CLOSED
 *                  sessions take late events inside their bounds (corrections); MERGED sessions are ignored
 * @param cutUntil  for a session cut short before its gap ended (maxLifetime, maxEventsPerWindow): its last event time
 *                  plus the gap, before which a new session continues it; {@link Long#MIN_VALUE} for any other session
 */
public record SessionView(String windowId, Interval bounds, WindowStatus status, long cutUntil) {

    public SessionView {
        Objects.requireNonNull(windowId, "windowId");
        Objects.requireNonNull(bounds, "bounds");
        Objects.requireNonNull(status, "status");
    }

    /** A session that was not cut short. */
    public SessionView(String windowId, Interval bounds, WindowStatus status) {
        this(windowId, bounds, status, Long.MIN_VALUE);
    }

    /** OPEN or HELD: the session still accepts on-time events and may grow or absorb its neighbours. */
    public boolean acceptsEvents() {
        return status == WindowStatus.OPEN || status == WindowStatus.HELD;
    }

    /** CLAIMED or CLOSED: its bounds are frozen; an event inside them is late for this window (a correction, or too late). */
    public boolean isFlushed() {
        return status == WindowStatus.CLAIMED || status == WindowStatus.CLOSED;
    }

    /** Whether a new session starting at {@code start} continues this one (it was cut short and its gap has not ended). */
    public boolean continuedBy(long start) {
        return isFlushed() && bounds.endMillis() <= start && start < cutUntil;
    }
}
