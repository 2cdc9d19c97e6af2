package dev.fanin.core.machine;

import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.trigger.Triggers;
import dev.fanin.core.trigger.WindowFacts;
import dev.fanin.core.watermark.Watermark;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What each status does when a window is stepped (docs/SEMANTICS.md, "Window life cycle"; {@link TransitionTable}
 * lists the outcomes each may have): an accepting window is claimed or held when a trigger holds, a claim is taken over
 * once its lease ends, a closed window's pending correction is claimed after the correction delay. Then the due time
 * and the timer chain are scheduled ({@link DueSchedule}).
 */
final class Decisions {

    private final PipelineConfig config;
    private final Duration lease;
    private final Claims claims;
    private final DueSchedule due;
    /** The watermark open windows are scheduled by ({@link WindowMachine#scheduledBy}); null: the one decided at. */
    private final Watermark scheduling;

    Decisions(PipelineConfig config, Duration lease, Claims claims, DueSchedule due, Watermark scheduling) {
        this.config = config;
        this.lease = lease;
        this.claims = claims;
        this.due = due;
        this.scheduling = scheduling;
    }

    /** What a decision is made on: the state as read, the outcomes of the events offered, and when and by whom. */
    record Step(WindowState before, List<EventOutcome> outcomes, long watermark, Instant now, Visitor visitor) {
    }

    /** The status's rule applied to {@code s}, then its due time and timer scheduled; {@code changed}: already changed. */
    Transition decide(WindowState.Builder s, boolean changed, Step step) {
        WindowStatus was = s.status;
        Transition.Action action = switch (s.status) {
            case OPEN, HELD -> accepting(s, step.watermark(), step.now());
            case CLAIMED -> claimed(s, step.now());
            case CLOSED -> closed(s, step.before().pendingSince() == null, step.now());
            case MERGED -> {
                s.dueAt = null;
                yield Transition.Action.NONE;
            }
        };
        // A HELD window that is still to be held changes nothing: a visit then writes nothing.
        changed |= action != Transition.Action.NONE || s.status != was;
        WindowState before = step.before();
        DueSchedule.Listed listed = due.schedule(s, before, step.visitor() == Visitor.WRITER && changed, step.visitor(), step.now());
        changed |= !Objects.equals(s.dueAt, before.dueAt()) || !Objects.equals(s.timer, before.timer());
        return new Transition(changed ? s.build() : before, changed, step.outcomes(), action, listed.timerDue(), listed.listingDue());
    }

    /** An accepting window: claimed (or held) when a trigger holds, else due at its next check. */
    private Transition.Action accepting(WindowState.Builder s, long watermark, Instant now) {
        EnumSet<CloseReason> holding = Triggers.holding(config, facts(s), watermark, now);
        Optional<CloseReason> winner = Triggers.winner(holding);
        Transition.Action action = winner.isPresent() ? claims.close(s, winner.get(), holding, now) : Transition.Action.NONE;
        if (s.status == WindowStatus.OPEN) {
            s.dueAt = nextCheck(s, watermark, now);
        } else if (s.status == WindowStatus.HELD) {
            s.dueAt = s.hardDeadline;
        }
        return action;
    }

    /**
     * When an open window is looked at again: when a time trigger could first hold, with the watermark moving with the
     * clock ({@link Triggers#nextCheck}). A backlog's cap holds the watermark still until it may lift, and then lets it
     * go at most to its uncapped value: so no later than that moment, or when the uncapped watermark moving with the
     * clock passes the end, whichever comes later (a window far ahead is not looked at every time the cap may lift).
     */
    private Instant nextCheck(WindowState.Builder s, long watermark, Instant now) {
        if (scheduling == null) {
            return Triggers.nextCheck(config, facts(s), watermark, now);
        }
        Instant capped = Triggers.nextCheck(config, facts(s), scheduling.millis(), now);
        if (scheduling.heldUntil() == null) {
            return capped;
        }
        Instant uncapped = Triggers.nextCheck(config, facts(s), scheduling.uncappedMillis(), now);
        Instant lifted = uncapped.isAfter(scheduling.heldUntil()) ? uncapped : scheduling.heldUntil();
        return lifted.isBefore(capped) ? lifted : capped;
    }

    /** A claim: taken over once its lease has ended, else due when it ends. */
    private Transition.Action claimed(WindowState.Builder s, Instant now) {
        Transition.Action action = Transition.Action.NONE;
        if (!now.isBefore(s.leaseUntil)) {
            // The claimer did not commit in time: take over with a new fence; the frozen emission is unchanged.
            s.fence++;
            s.leaseUntil = now.plus(lease);
            action = Transition.Action.EMIT;
        }
        s.dueAt = s.leaseUntil;
        return action;
    }

    /**
     * A closed window: its pending correction claimed once it is due ({@link #correctionDue}), else due then; under
     * HOLD, the late events of a continuation closed before it counted any are held as an incomplete revision is
     * ({@link #heldContinuation}).
     *
     * @param pendingNow whether the pending events came in this very step (for the alert a hold raises once)
     */
    private Transition.Action closed(WindowState.Builder s, boolean pendingNow, Instant now) {
        if (s.pendingSince == null) {
            s.dueAt = null;
            return Transition.Action.NONE;
        }
        if (heldContinuation(s)) {
            if (now.isBefore(s.hardDeadline)) {
                s.dueAt = s.hardDeadline;
                return pendingNow ? Transition.Action.HELD : Transition.Action.NONE;
            }
            claims.claimHeldAtDeadline(s, now);
            s.dueAt = s.leaseUntil;
            return Transition.Action.EMIT;
        }
        Instant correctionDue = correctionDue(s);
        if (now.isBefore(correctionDue)) {
            s.dueAt = correctionDue;
            return Transition.Action.NONE;
        }
        // Late events of a continuation closed before it counted any are that revision, not a correction of the last.
        CloseReason reason = s.closedUnemitted != null ? s.closedUnemitted : CloseReason.LATE_CORRECTION;
        boolean complete = s.completeness.completeOnClose(reason);
        // A revision that follows one dead-lettered (held incomplete to its deadline) goes the same way while still
        // incomplete: the target never had what it would correct or continue. Complete, it goes to the target.
        claims.claim(s, new Claims.Close(reason, complete, s.committedDeadLettered && !complete, null), now);
        s.dueAt = s.leaseUntil;
        return Transition.Action.EMIT;
    }


    /**
     * Whether {@code s} is a continuation closed before it counted anything (a split's, or a full revision's), whose
     * late events, still incomplete, are held under HOLD as its revision would have been had they come before that
     * close: it is claimed once complete (as a correction is), or at the hard deadline, flagged or dead-lettered as
     * {@code atDeadline} says. So whether a sweep closed the empty continuation first changes nothing. It stays CLOSED
     * meanwhile (its slot was returned at that close), taking its missing events past the allowed lateness as a HELD
     * window does ({@link EventAdmission}).
     */
    private boolean heldContinuation(WindowState.Builder s) {
        return heldContinuation(config, s.status, s.closedUnemitted, s.completeness);
    }

    static boolean heldContinuation(PipelineConfig config, WindowStatus status, CloseReason closedUnemitted, Completeness completeness) {
        // An operator who closed the window said not to wait: its late events go as corrections do.
        return status == WindowStatus.CLOSED && closedUnemitted != null && closedUnemitted != CloseReason.OPERATOR
                && config.holdsIncomplete() && !completeness.completeOnClose(closedUnemitted);
    }

    /**
     * When a pending correction is due: {@code late.correctionDelay} after its first event, but no later than a lease and
     * the {@link WindowMachine#correctionMargin} before the window expires. The expiry was fixed when the window opened,
     * with the delay then in force; a longer delay published since would otherwise let the items expire with the
     * correction unemitted.
     */
    private Instant correctionDue(WindowState.Builder s) {
        Instant byDelay = s.pendingSince.plus(config.late().correctionDelay());
        Instant latest = s.expiresAt.minus(lease).minus(WindowMachine.correctionMargin(config));
        return byDelay.isAfter(latest) ? latest : byDelay;
    }

    WindowFacts facts(WindowState.Builder s) {
        boolean sizeReached = config.bounds().onOverflow() == Bounds.Overflow.SPLIT
                && s.revisionEvents >= config.bounds().maxEventsPerWindow();
        return new WindowFacts(s.kind, s.bounds, s.revisionEvents, s.completeness, s.hardDeadline, sizeReached);
    }
}
