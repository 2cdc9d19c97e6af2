package dev.fanin.core.trigger;

import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowKind;
import java.time.Instant;
import java.util.Objects;

/**
 * What the triggers look at in one window revision.
 *
 * @param kind             tumbling, sliding or session
 * @param bounds           the window's event-time bounds; for a session {@code [first event, last event + gap)}
 * @param distinctEvents   distinct events in the current revision (the COUNT trigger's measure)
 * @param completeness     expected count, members and sentinel of the current revision
 * @param hardDeadline     processing time at which the window's hard lifetime ends (creation + maxLifetime)
 * @param sizeBoundReached the revision holds {@code bounds.maxEventsPerWindow} events (overflow policy SPLIT)
 */
public record WindowFacts(WindowKind kind, Interval bounds, long distinctEvents, Completeness completeness, Instant hardDeadline,
                          boolean sizeBoundReached) {

    public WindowFacts {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(bounds, "bounds");
        Objects.requireNonNull(completeness, "completeness");
        Objects.requireNonNull(hardDeadline, "hardDeadline");
    }
}
