package dev.fanin.core.machine;

import java.time.Instant;
import java.util.Objects;

/**
 * When a window must be looked at, and by when it must close. Processing time throughout.
 *
 * @param dueAt        next time at which a sweep or timer must look at the window (null: never); the due buckets list
 *                     it, so it may be early, never late
 * @param timer        the window's live timer chain, null when it has none (closed, claimed or merged)
 * @param openedAt     creation time
 * @param hardDeadline openedAt + maxLifetime: the window is claimed by then at the latest
 * @param expiresAt    TTL, fixed at creation: hard deadline + allowed lateness + correction delay + lease + retention
 * @param pendingSince when the first event not yet in an emitted revision arrived after a claim (a correction is due
 *                     at pendingSince + correctionDelay, but no later than a lease and
 *                     {@link WindowMachine#correctionMargin} before expiresAt), else null
 * @param admitted     what the window's open-window slot was counted by, where a merge moved openedAt or
 *                     hardDeadline away from it; null while they are the window's own
 */
public record Schedule(Instant dueAt, TimerChain timer, Instant openedAt, Instant hardDeadline, Instant expiresAt,
                       Instant pendingSince, Admitted admitted) {

    public Schedule {
        Objects.requireNonNull(openedAt, "openedAt");
        Objects.requireNonNull(hardDeadline, "hardDeadline");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** A window created at {@code now}: nothing due yet, no timer, no correction pending. */
    static Schedule opened(Instant now, Instant hardDeadline, Instant expiresAt) {
        return new Schedule(null, null, now, hardDeadline, expiresAt, null, null);
    }
}
