package dev.fanin.core.machine;

import dev.fanin.core.window.CloseReason;
import java.util.List;

/**
 * How a session relates to the sessions around it; empty for a time window.
 *
 * @param absorbed  ids of the sessions merged into this one (the earliest {@code SessionMerge.MAX_ABSORBED_LISTED})
 * @param continues for a session that continues one cut short, the aggregate id of the cut revision; else null
 * @param cutBy     for a session cut short at its first close, why (HARD_LIFETIME, SIZE_LIMIT, SESSION_LIMIT): its
 *                  bounds end just after its last event, and a new session starting within the gap after it continues
 *                  it; else null
 */
public record Lineage(List<String> absorbed, String continues, CloseReason cutBy) {

    public Lineage {
        absorbed = List.copyOf(absorbed);
    }

    /** A window that continues {@code continues} (null: none), nothing absorbed, not cut. */
    static Lineage of(String continues) {
        return new Lineage(List.of(), continues, null);
    }
}
