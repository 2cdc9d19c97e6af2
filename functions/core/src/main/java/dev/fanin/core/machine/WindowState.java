package dev.fanin.core.machine;

import dev.fanin.core.aggregate.Aggregates;
import dev.fanin.core.config.PipelineConfig;
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
 * The core's whole view of one window, in parts that each own one idea: its {@link Lifecycle} (status, version, fence,
 * claim, revisions), its {@link Schedule} (due time, timer chain, deadlines, pending correction), its {@link Contents}
 * (bounds, event ids, accumulators, completeness, counts), the {@link EventTimes} of what it took and, for a session,
 * its {@link Lineage}. Immutable; the {@link WindowMachine} derives the next state, the store persists it (through
 * {@link WindowCodec}) under a version condition. The accessors below read through to the parts.
 *
 * @param ref    identity
 * @param kind   tumbling, sliding or session
 * @param layout the store's bookkeeping, carried unchanged
 */
public record WindowState(WindowRef ref, WindowKind kind, Lifecycle lifecycle, Schedule schedule, Contents contents, EventTimes times,
                          Lineage lineage, Object layout) {

    public WindowState {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(lifecycle, "lifecycle");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(contents, "contents");
        Objects.requireNonNull(times, "times");
        Objects.requireNonNull(lineage, "lineage");
    }

    // Read-through accessors: Lifecycle.
    public WindowStatus status() {
        return lifecycle.status();
    }

    public long version() {
        return lifecycle.version();
    }

    public long fence() {
        return lifecycle.fence();
    }

    public Instant leaseUntil() {
        return lifecycle.leaseUntil();
    }

    public Claim claim() {
        return lifecycle.claim();
    }

    public int revision() {
        return lifecycle.revision();
    }

    public int committedRevision() {
        return lifecycle.committedRevision();
    }

    public CloseReason closedUnemitted() {
        return lifecycle.closedUnemitted();
    }

    public CloseReason closedBy() {
        return lifecycle.closedBy();
    }

    /** Whether the last committed revision was dead-lettered: the target never had it. */
    public boolean committedDeadLettered() {
        return lifecycle.committedDeadLettered();
    }

    // Schedule.
    public Instant dueAt() {
        return schedule.dueAt();
    }

    public TimerChain timer() {
        return schedule.timer();
    }

    public Instant openedAt() {
        return schedule.openedAt();
    }

    public Instant hardDeadline() {
        return schedule.hardDeadline();
    }

    /** What the window's open-window slot was counted by: its own creation and deadline, unless a merge moved them. */
    public Admitted admitted() {
        return schedule.admitted() != null ? schedule.admitted() : new Admitted(openedAt(), hardDeadline());
    }

    public Instant expiresAt() {
        return schedule.expiresAt();
    }

    public Instant pendingSince() {
        return schedule.pendingSince();
    }

    // Contents.
    public Interval bounds() {
        return contents.bounds();
    }

    public Set<String> eventIds() {
        return contents.eventIds();
    }

    public Aggregates aggregates() {
        return contents.aggregates();
    }

    public Completeness completeness() {
        return contents.completeness();
    }

    public long revisionEvents() {
        return contents.revisionEvents();
    }

    public long lateEvents() {
        return contents.lateEvents();
    }

    // EventTimes.
    public Instant firstEventTime() {
        return times.first();
    }

    public Instant lastEventTime() {
        return times.last();
    }

    public Instant lastTakenTime() {
        return times.lastTaken();
    }

    public Instant lastArrival() {
        return times.lastArrival();
    }

    // Lineage.
    public List<String> absorbed() {
        return lineage.absorbed();
    }

    public String continues() {
        return lineage.continues();
    }

    public CloseReason cutBy() {
        return lineage.cutBy();
    }

    public boolean isClaimed() {
        return status() == WindowStatus.CLAIMED;
    }

    /**
     * Whether this is a time window stored only to keep the too-late verdicts of its events (none was in time): closed
     * without ever being emitted, which no other window is. Events meet it as a new window that keeps those verdicts
     * ({@link WindowMachine#ingest(WindowState, List, long, Instant, Interval)}).
     */
    public boolean keepsVerdictsOnly() {
        return status() == WindowStatus.CLOSED && committedRevision() < 0;
    }

    /**
     * Whether the window holds one of its pipeline's open-window slots ({@code bounds.maxOpenWindows}): from its
     * opening (its creation; for one stored only for too-late verdicts, its first event in time) until it is first
     * closed or merged. A SIZE_LIMIT split keeps its slot (the window continues); a
     * closed window claimed again for late events takes none: a correction, or the late events of a continuation that
     * closed unemitted ({@link #closedUnemitted}).
     */
    public boolean holdsSlot() {
        return switch (status()) {
            case OPEN, HELD -> true;
            case CLAIMED -> claim().reason() != CloseReason.LATE_CORRECTION && closedUnemitted() == null;
            case CLOSED, MERGED -> false;
        };
    }

    /**
     * Whether this is a continuation closed before it counted anything whose late events (it has some), incomplete
     * under HOLD, are held until complete or the hard deadline, as a HELD window is (it stays CLOSED: its slot was
     * returned).
     */
    public boolean heldContinuation(PipelineConfig config) {
        return pendingSince() != null && Decisions.heldContinuation(config, status(), closedUnemitted(), completeness());
    }

    /** Whether an emitted revision exists, so that new events are corrections of it. */
    public boolean hasCommitted() {
        return committedRevision() >= 0;
    }

    /** The aggregate id of the revision being accumulated or emitted now. */
    public String aggregateId() {
        return ref.aggregateId(revision());
    }

    /** This state as the store holds it after a write: the next version. */
    public WindowState withVersion(long newVersion) {
        Lifecycle l = lifecycle;
        return new WindowState(ref, kind, new Lifecycle(l.status(), newVersion, l.fence(), l.leaseUntil(), l.claim(), l.revision(),
                l.committedRevision(), l.closedUnemitted(), l.closedBy(), l.committedDeadLettered()), schedule, contents, times, lineage, layout);
    }

    /**
     * For a session cut short: the event time before which a new session continues it (the last event it took plus
     * {@code gap}); {@link Long#MIN_VALUE} for any other window.
     */
    public long cutUntil(Duration gap) {
        Instant lastTaken = times.lastTaken();
        return lineage.cutBy() != null && lastTaken != null ? EventTimeMath.plus(lastTaken.toEpochMilli(), gap.toMillis()) : Long.MIN_VALUE;
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
        CloseReason closedUnemitted;
        CloseReason closedBy;
        boolean committedDeadLettered;
        Aggregates aggregates;
        Completeness completeness;
        long revisionEvents;
        Instant openedAt;
        Instant hardDeadline;
        Admitted admitted;
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
            bounds = s.bounds();
            status = s.status();
            version = s.version();
            fence = s.fence();
            leaseUntil = s.leaseUntil();
            dueAt = s.dueAt();
            expiresAt = s.expiresAt();
            eventIds = new java.util.HashSet<>(s.eventIds());
            layout = s.layout;
            revision = s.revision();
            committedRevision = s.committedRevision();
            closedUnemitted = s.closedUnemitted();
            closedBy = s.closedBy();
            committedDeadLettered = s.committedDeadLettered();
            aggregates = s.aggregates();
            completeness = s.completeness();
            revisionEvents = s.revisionEvents();
            openedAt = s.openedAt();
            hardDeadline = s.hardDeadline();
            admitted = s.schedule.admitted();
            firstEventTime = s.firstEventTime();
            lastEventTime = s.lastEventTime();
            lastTakenTime = s.lastTakenTime();
            lastArrival = s.lastArrival();
            claim = s.claim();
            pendingSince = s.pendingSince();
            timer = s.timer();
            absorbed = new java.util.ArrayList<>(s.absorbed());
            lateEvents = s.lateEvents();
            continues = s.continues();
            cutBy = s.cutBy();
        }

        WindowState build() {
            return new WindowState(ref, kind,
                    new Lifecycle(status, version, fence, leaseUntil, claim, revision, committedRevision, closedUnemitted, closedBy,
                            committedDeadLettered),
                    new Schedule(dueAt, timer, openedAt, hardDeadline, expiresAt, pendingSince, admitted),
                    new Contents(bounds, eventIds, aggregates, completeness, revisionEvents, lateEvents),
                    new EventTimes(firstEventTime, lastEventTime, lastTakenTime, lastArrival),
                    new Lineage(absorbed, continues, cutBy), layout);
        }
    }
}
