package dev.fanin.core.machine;

import java.time.Instant;

/**
 * The times of the events a window took. The first three are event time, {@code lastArrival} processing time.
 *
 * @param first       earliest event time among the events the accumulators hold (a sentinel that does not count as an
 *                    event is not one; a SIZE_LIMIT split starts afresh), null when none
 * @param last        latest such event time, null when none
 * @param lastTaken   latest event time of every event the window took over its life, a sentinel that does not count
 *                    as an event included (a session cut short ends just after it), null when none
 * @param lastArrival processing time of the latest accepted event, null when none
 */
public record EventTimes(Instant first, Instant last, Instant lastTaken, Instant lastArrival) {

    /** No event taken yet. */
    static final EventTimes NONE = new EventTimes(null, null, null, null);

    /** The earlier of two times, where null is "none yet". */
    static Instant min(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isBefore(b) ? a : b;
    }

    /** The later of two times, where null is "none yet". */
    static Instant max(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isAfter(b) ? a : b;
    }
}
