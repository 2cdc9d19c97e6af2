package dev.fanin.core.machine;

import dev.fanin.core.aggregate.Aggregates;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.Retirement;
import dev.fanin.core.emit.AggregateEvent;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;

/**
 * How a revision is claimed: the winning trigger under the incomplete-window policy, the frozen emission, the new
 * fence and lease, and what a split or a cut session keeps. A step of {@link WindowMachine}, on its working copy.
 */
final class Claims {

    /** One close: why, the {@code complete} flag it carries, whether HOLD's deadline dead-letters it, and an operator's note. */
    record Close(CloseReason reason, boolean complete, boolean deadLetter, String note) {
    }

    private final PipelineConfig config;
    private final Duration lease;
    /** Set for a pipeline no longer configured: every revision claimed says so. */
    private final Retirement retired;

    Claims(PipelineConfig config, Duration lease, Retirement retired) {
        this.config = config;
        this.lease = lease;
        this.retired = retired;
    }

    /**
     * Closes a SIZE_LIMIT continuation that received nothing (not even a sentinel that alone completes the window,
     * which is emitted so) without emitting an empty revision, whatever closes it (a trigger, also under HOLD: nothing
     * of it is missing, its completeness started afresh at the split; or an operator). Nothing is due any more: the
     * due time goes and the timer chain ends.
     *
     * @return whether {@code s} was such a continuation, now CLOSED
     */
    boolean closedUnemittedIfEmpty(WindowState.Builder s, CloseReason reason) {
        if (s.revisionEvents != 0 || s.committedRevision < 0 || s.completeness.sentinelCompleted()) {
            return false;
        }
        s.status = WindowStatus.CLOSED;
        s.closedUnemitted = reason;
        s.dueAt = null;
        s.timer = null;
        return true;
    }

    /** Applies the winning trigger under the incomplete-window policy. */
    Transition.Action close(WindowState.Builder s, CloseReason reason, EnumSet<CloseReason> holding, Instant now) {
        if (closedUnemittedIfEmpty(s, reason)) {
            return Transition.Action.NONE;
        }
        boolean complete = s.completeness.completeOnClose(reason);
        // Under HOLD an incomplete window fires at its hard deadline only: the event-time end or a count reached first
        // holds it. The size bound is the exception: a full revision is cut (flagged) so the window can go on.
        if (!complete && reason != CloseReason.SIZE_LIMIT && config.holdsIncomplete()) {
            if (!holding.contains(CloseReason.HARD_LIFETIME)) {
                boolean wasHeld = s.status == WindowStatus.HELD;
                s.status = WindowStatus.HELD;
                return wasHeld ? Transition.Action.NONE : Transition.Action.HELD;
            }
            claimHeldAtDeadline(s, now);
            return Transition.Action.EMIT;
        }
        claim(s, new Close(reason, complete, false, null), now);
        return Transition.Action.EMIT;
    }

    /** An incomplete revision held under HOLD, at its hard deadline: claimed HARD_LIFETIME, flagged or dead-lettered as {@code atDeadline} says. */
    void claimHeldAtDeadline(WindowState.Builder s, Instant now) {
        boolean deadLetter = config.incomplete().atDeadline() == IncompletePolicy.AtDeadline.DEAD_LETTER;
        claim(s, new Close(CloseReason.HARD_LIFETIME, false, deadLetter, null), now);
    }


    /** Claims the next revision: its emission frozen, a new fence and lease, the timer chain ended. */
    void claim(WindowState.Builder s, Close close, Instant now) {
        int revision = s.committedRevision + 1;
        if (s.kind.isSession() && revision == 0) {
            freezeIfCut(s, close.reason(), now);
        }
        AggregateEvent event = emission(s, close, revision, now);
        s.revision = revision;
        s.completeness = s.completeness.closedBy(close.reason());
        s.status = WindowStatus.CLAIMED;
        s.fence++;
        s.leaseUntil = now.plus(lease);
        s.claim = new Claim(revision, close.reason(), close.complete(), close.deadLetter(), event.toJson(now));
        s.pendingSince = null;
        s.dueAt = s.leaseUntil;
        // The claim ends the window's timer chain: a later message of it finds the window claimed and stops.
        s.timer = null;
        if (close.reason() == CloseReason.SIZE_LIMIT && !s.kind.isSession()) {
            // A time window continues: its emission is frozen in the claim, so the next revision starts empty now and
            // counts the events that come while this one is emitted (a crashed emission waits for its lease, they
            // do not).
            startEmpty(s, config);
            s.completeness = Completeness.initial(config);
        }
    }

    /** The next revision of a time window counts its own events only (a continuation); the ids stay, for dedupe. */
    static void startEmpty(WindowState.Builder s, PipelineConfig config) {
        s.aggregates = Aggregates.empty(config.aggregations());
        s.revisionEvents = 0;
        s.firstEventTime = null;
        s.lastEventTime = null;
    }

    /** The aggregate the claim freezes. */
    private AggregateEvent emission(WindowState.Builder s, Close close, int revision, Instant now) {
        CloseReason reason = close.reason();
        return AggregateEvent.builder(s.ref, s.kind, s.bounds)
                .revision(revision)
                .corrects(reason == CloseReason.LATE_CORRECTION ? s.ref.aggregateId(s.committedRevision) : null)
                .continues(revision == 0 ? s.continues : null)
                .closeReason(reason)
                .completeness(s.completeness)
                .complete(close.complete())
                .aggregations(s.aggregates)
                .eventTimes(s.firstEventTime, s.lastEventTime)
                .openedAt(s.openedAt)
                .closedAt(now)
                .operatorNote(close.note())
                .retired(retired)
                .build();
    }

    /**
     * A session cut short before its gap ended (maxLifetime, maxEventsPerWindow) ends just after the last event it
     * took (a sentinel that is not counted included, which {@code lastEventTime} leaves out): its
     * bounds freeze there, so the on-time events after it open a new session that continues it instead of being late
     * for this one. A session claimed at or past its hard deadline is cut there whatever trigger won (its gap may have
     * ended too): the ingest plans it so from its deadline on ({@code KeySessions}), and may have opened the session
     * that continues it already.
     */
    private static void freezeIfCut(WindowState.Builder s, CloseReason reason, Instant now) {
        boolean cut = reason == CloseReason.HARD_LIFETIME || reason == CloseReason.SIZE_LIMIT || reason == CloseReason.SESSION_LIMIT;
        boolean pastDeadline = !now.isBefore(s.hardDeadline);
        if ((cut || pastDeadline) && s.lastTakenTime != null) {
            s.cutBy = cut ? reason : CloseReason.HARD_LIFETIME;
            s.bounds = s.bounds.endingJustAfter(s.lastTakenTime.toEpochMilli());
        }
    }
}
