package dev.fanin.core.machine;

import dev.fanin.core.aggregate.Aggregates;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.window.Interval;
import java.util.Objects;
import java.util.Set;

/**
 * What a window holds.
 *
 * @param bounds         half-open event-time bounds; a session's grows as events extend it
 * @param eventIds       digests of every event id accepted during the window's life, and of those recorded too late,
 *                       marked ({@code EventIdDigest.tooLate})
 * @param aggregates     the accumulators (cumulative across corrections; reset when a SIZE_LIMIT split is claimed)
 * @param completeness   expected/seen/members of the accumulating revision
 * @param revisionEvents distinct events counted in the accumulating revision (COUNT trigger and size bound)
 * @param lateEvents     late events (within lateness) accepted over the window's life
 */
public record Contents(Interval bounds, Set<String> eventIds, Aggregates aggregates, Completeness completeness, long revisionEvents,
                       long lateEvents) {

    public Contents {
        Objects.requireNonNull(bounds, "bounds");
        Objects.requireNonNull(aggregates, "aggregates");
        Objects.requireNonNull(completeness, "completeness");
        eventIds = Set.copyOf(eventIds);
    }

    /** Nothing counted yet. */
    static Contents empty(Interval bounds, Aggregates aggregates, Completeness completeness) {
        return new Contents(bounds, Set.of(), aggregates, completeness, 0, 0);
    }
}
