package dev.fanin.core.window;

import java.util.List;
import java.util.Objects;

/**
 * What a batch of events does to the sessions of one key; computed by {@link SessionPlanner}.
 *
 * @param sessions the accepting sessions this batch creates or changes, ordered by start; each event index appears
 *                 in exactly one of them or in {@code flushed}
 * @param flushed  events whose time lies inside a session that is no longer accepting (CLAIMED or CLOSED), grouped by
 *                 that session; the caller classifies their lateness against that window
 */
public record SessionPlan(List<Target> sessions, List<FlushedTarget> flushed) {

    public SessionPlan {
        sessions = List.copyOf(sessions);
        flushed = List.copyOf(flushed);
    }

    /**
     * One resulting accepting session.
     *
     * @param windowId     the surviving id: the smallest id among the existing accepting sessions it covers, or for a
     *                     brand new session {@link WindowRef#sessionId(long)} of its earliest event
     * @param created      true when no existing session survives into it (the caller creates {@code windowId})
     * @param bounds       its bounds after this batch: {@code [earliest event, latest event + gap)}, clipped at the
     *                     start of the next closed session
     * @param absorbed     ids of the other existing accepting sessions merged into it (they leave the key), ascending
     * @param eventIndexes indexes into the planner's {@code eventTimes} of the events that go to it, ascending
     * @param continues    for a created session, the id of the session cut short (maxLifetime, maxEventsPerWindow)
     *                     that it continues; else null
     */
    public record Target(String windowId, boolean created, Interval bounds, List<String> absorbed, List<Integer> eventIndexes,
                         String continues) {

        public Target {
            Objects.requireNonNull(windowId, "windowId");
            Objects.requireNonNull(bounds, "bounds");
            absorbed = List.copyOf(absorbed);
            eventIndexes = List.copyOf(eventIndexes);
        }

        /** A target that continues no cut session. */
        public Target(String windowId, boolean created, Interval bounds, List<String> absorbed, List<Integer> eventIndexes) {
            this(windowId, created, bounds, absorbed, eventIndexes, null);
        }
    }

    /**
     * Events for a session that already closed (or is being flushed).
     *
     * @param windowId     the flushed session's id
     * @param eventIndexes indexes into the planner's {@code eventTimes}, ascending
     */
    public record FlushedTarget(String windowId, List<Integer> eventIndexes) {

        public FlushedTarget {
            Objects.requireNonNull(windowId, "windowId");
            eventIndexes = List.copyOf(eventIndexes);
        }
    }
}
