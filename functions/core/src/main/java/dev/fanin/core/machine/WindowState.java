package dev.fanin.core.machine;

import dev.fanin.core.aggregate.Aggregates;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.EventTimeMath;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowKind;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The core's whole view of one window. Immutable; the {@link WindowMachine} derives the next state, the store
 * persists it (through {@link WindowCodec}) under a version condition.
 *
 * <p>Two clocks: {@code bounds}, {@code firstEventTime} and {@code lastEventTime} are event time; every other instant
 * is processing time.
 *
 * @param ref               identity
 * @param kind              tumbling, sliding or session
 * @param bounds            half-open event-time bounds; a session's grows as events extend it
 * @param status            life-cycle status
 * @param version           store version this state was read at (0: never stored)
 * @param fence             fencing token of the latest claim
 * @param leaseUntil        while CLAIMED, when the claim may be taken over
 * @param dueAt             next processing time at which a sweep or timer must look at the window (null: never)
 * @param expiresAt         TTL, fixed at creation: hard deadline + allowed lateness + correction delay + retention
 * @param eventIds          digests of every event id accepted during the window's life
 * @param layout            the store's bookkeeping, carried unchanged
 * @param revision          the revision accumulating now (or being emitted, while CLAIMED)
 * @param committedRevision the last committed revision, -1 before the first commit
 * @param aggregates        the accumulators (cumulative across corrections; reset when a SIZE_LIMIT split is claimed)
 * @param completeness      expected/seen/members of the accumulating revision
 * @param revisionEvents    distinct events counted in the accumulating revision (COUNT trigger and size bound)
 * @param openedAt          creation time
 * @param hardDeadline      openedAt + maxLifetime: the window is claimed by then at the latest
 * @param firstEventTime    earliest event time among the events the accumulators hold (a sentinel that does not
 *                          count as an event is not one; a SIZE_LIMIT split starts afresh), null when none
 * @param lastEventTime     latest such event time, null when none
 * @param lastTakenTime     latest event time of every event the window took over its life, a sentinel that does not
 *                          count as an event included (a session cut short ends just after it), null when none
 * @param lastArrival       processing time of the latest accepted event
 * @param claim             the frozen revision while CLAIMED, else null
 * @param pendingSince      when the first event not yet in an emitted revision arrived after a claim (a correction
 *                          is due at pendingSince + correctionDelay), else null
 * @param timer             the window's live timer chain, null when it has none (closed, claimed or merged)
 * @param absorbed          ids of the sessions merged into this one
 * @param lateEvents        late events (within lateness) accepted over the window's life
 * @param continues         for a session that continues one cut short, the aggregate id of the cut revision; else null
 * @param cutBy             for a session cut short at its first close, why (HARD_LIFETIME, SIZE_LIMIT): its bounds end
 *                          just after its last event, and a new session starting within the gap after it continues it;
 *                          else null
 */
public record WindowState(
        WindowRef ref,
        WindowKind kind,
        Interval bounds,
        WindowStatus status,
        long version,
        long fence,
        Instant leaseUntil,
        Instant dueAt,
        Instant expiresAt,
        Set<String> eventIds,
        Object layout,
        int revision,
        int committedRevision,
        Aggregates aggregates,
        Completeness completeness,
        long revisionEvents,
        Instant openedAt,
        Instant hardDeadline,
        Instant firstEventTime,
        Instant lastEventTime,
        Instant lastTakenTime,
        Instant lastArrival,
        Claim claim,
        Instant pendingSince,
        TimerChain timer,
        List<String> absorbed,
        long lateEvents,
        String continues,
        CloseReason cutBy) {

    public WindowState {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(bounds, "bounds");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(aggregates, "aggregates");
        Objects.requireNonNull(completeness, "completeness");
        Objects.requireNonNull(openedAt, "openedAt");
        Objects.requireNonNull(hardDeadline, "hardDeadline");
        eventIds = Set.copyOf(eventIds);
        absorbed = List.copyOf(absorbed);
        if (status == WindowStatus.CLAIMED && (claim == null || leaseUntil == null)) {
            throw new IllegalArgumentException("a CLAIMED window needs its claim and lease: " + ref);
        }
    }

    public boolean isClaimed() {
        return status == WindowStatus.CLAIMED;
    }

    /**
     * Whether the window holds one of its pipeline's open-window slots ({@code bounds.maxOpenWindows}): from its
     * creation until it is first closed or merged. A SIZE_LIMIT split keeps its slot (the window continues); a
     * correction (a closed window claimed again for late events) takes none.
     */
    public boolean holdsSlot() {
        return switch (status) {
            case OPEN, HELD -> true;
            case CLAIMED -> claim == null || claim.reason() != CloseReason.LATE_CORRECTION;
            case CLOSED, MERGED -> false;
        };
    }

    /** Whether an emitted revision exists, so that new events are corrections of it. */
    public boolean hasCommitted() {
        return committedRevision >= 0;
    }

    /** The aggregate id of the revision being accumulated or emitted now. */
    public String aggregateId() {
        return ref.aggregateId(revision);
    }

    /** This state as the store holds it after a write: the next version. */
    public WindowState withVersion(long newVersion) {
        Builder b = toBuilder();
        b.version = newVersion;
        return b.build();
    }

    /**
     * For a session cut short: the event time before which a new session continues it (the last event it took plus
     * {@code gap}); {@link Long#MIN_VALUE} for any other window.
     */
    public long cutUntil(Duration gap) {
        return cutBy != null && lastTakenTime != null ? EventTimeMath.plus(lastTakenTime.toEpochMilli(), gap.toMillis()) : Long.MIN_VALUE;
    }

    WindowState.Builder toBuilder() {
        return new Builder(this);
    }

    /** A mutable copy for the machine's step functions; not exposed beyond the package. */
    static final class Builder {
        WindowRef ref;
        WindowKind kind;
        Interval bounds;
        WindowStatus status;
        long version;
        long fence;
        Instant leaseUntil;
        Instant dueAt;
        Instant expiresAt;
        java.util.HashSet<String> eventIds;
        Object layout;
        int revision;
        int committedRevision;
        Aggregates aggregates;
        Completeness completeness;
        long revisionEvents;
        Instant openedAt;
        Instant hardDeadline;
        Instant firstEventTime;
        Instant lastEventTime;
        Instant lastTakenTime;
        Instant lastArrival;
        Claim claim;
        Instant pendingSince;
        TimerChain timer;
        java.util.ArrayList<String> absorbed;
        long lateEvents;
        String continues;
        CloseReason cutBy;

        Builder(WindowState s) {
            ref = s.ref;
            kind = s.kind;
            bounds = s.bounds;
            status = s.status;
            version = s.version;
            fence = s.fence;
            leaseUntil = s.leaseUntil;
            dueAt = s.dueAt;
            expiresAt = s.expiresAt;
            eventIds = new java.util.HashSet<>(s.eventIds);
            layout = s.layout;
            revision = s.revision;
            committedRevision = s.committedRevision;
            aggregates = s.aggregates;
            completeness = s.completeness;
            revisionEvents = s.revisionEvents;
            openedAt = s.openedAt;
            hardDeadline = s.hardDeadline;
            firstEventTime = s.firstEventTime;
            lastEventTime = s.lastEventTime;
            lastTakenTime = s.lastTakenTime;
            lastArrival = s.lastArrival;
            claim = s.claim;
            pendingSince = s.pendingSince;
            timer = s.timer;
            absorbed = new java.util.ArrayList<>(s.absorbed);
            lateEvents = s.lateEvents;
            continues = s.continues;
            cutBy = s.cutBy;
        }

        WindowState build() {
            return new WindowState(ref, kind, bounds, status, version, fence, leaseUntil, dueAt, expiresAt, eventIds, layout,
                    revision, committedRevision, aggregates, completeness, revisionEvents, openedAt, hardDeadline,
                    firstEventTime, lastEventTime, lastTakenTime, lastArrival, claim, pendingSince, timer, absorbed, lateEvents, continues, cutBy);
        }
    }
}
