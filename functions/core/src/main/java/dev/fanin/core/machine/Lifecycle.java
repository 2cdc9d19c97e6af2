package dev.fanin.core.machine;

import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.Objects;

/**
 * Where a window is in its life, and who holds it: the fields the store's conditions read.
 *
 * @param status            life-cycle status ({@link TransitionTable} has every change)
 * @param version           store version this state was read at (0: never stored)
 * @param fence             fencing token of the latest claim
 * @param leaseUntil        while CLAIMED, when the claim may be taken over; else null
 * @param claim             the frozen revision while CLAIMED, else null
 * @param revision          the revision accumulating now (or being emitted, while CLAIMED)
 * @param committedRevision the last committed revision, -1 before the first commit
 * @param closedUnemitted   the trigger that closed {@code revision} without emitting it (a SIZE_LIMIT split's
 *                          continuation that had counted nothing, or the continuation of a revision that closed full),
 *                          else null: events that come later are that revision's, emitted as it closed, not a
 *                          correction of the revision before it
 * @param closedBy          for a time window, the trigger of its latest close that was not a correction (what a
 *                          continuation of a full revision closes with), else null
 * @param committedDeadLettered whether the last committed revision was dead-lettered (the target never had it)
 */
public record Lifecycle(WindowStatus status, long version, long fence, Instant leaseUntil, Claim claim, int revision,
                        int committedRevision, CloseReason closedUnemitted, CloseReason closedBy, boolean committedDeadLettered) {

    /** A window not yet stored, accumulating its first revision. */
    static final Lifecycle NEW = new Lifecycle(WindowStatus.OPEN, 0, 0, null, null, 0, -1, null, null, false);

    public Lifecycle {
        Objects.requireNonNull(status, "status");
        if (status == WindowStatus.CLAIMED && (claim == null || leaseUntil == null)) {
            throw new IllegalArgumentException("a CLAIMED window needs its claim and lease");
        }
    }
}
