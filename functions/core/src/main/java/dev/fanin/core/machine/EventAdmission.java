package dev.fanin.core.machine;

import static dev.fanin.core.machine.EventTimes.max;
import static dev.fanin.core.machine.EventTimes.min;

import dev.fanin.core.aggregate.EventIdDigest;
import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SentinelSpec;
import dev.fanin.core.text.IsoMillis;
import dev.fanin.core.event.Event;
import dev.fanin.core.machine.EventOutcome.Disposition;
import dev.fanin.core.machine.EventOutcome.Verdict;
import dev.fanin.core.trigger.EventValues;
import dev.fanin.core.watermark.Lateness;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;

/**
 * What one event offered to a window becomes: a duplicate, too late (with the rule and its figures), refused for now,
 * or counted (accepted, accepted late, or a correction). The window's own decision (triggers, claims, due times) is
 * {@link WindowMachine}'s; this is only the step it takes per event.
 */
final class EventAdmission {

    private final PipelineConfig config;

    EventAdmission(PipelineConfig config) {
        this.config = config;
    }

    /**
     * @param bounds  the window's bounds once the batch is in (a session's end after the batch): every event is judged
     *                against its end
     * @param hadRoom whether the revision held fewer than the size bound when the batch was offered: only a session
     *                this batch fills takes the rest of its last millisecond ({@link #refusal})
     */
    EventOutcome offer(WindowState.Builder s, Event event, long watermark, Instant now, Interval bounds, boolean hadRoom) {
        String digest = EventIdDigest.of(event.eventId());
        if (s.eventIds.contains(digest)) {
            return new EventOutcome(event, Disposition.DUPLICATE);
        }
        if (s.eventIds.contains(EventIdDigest.tooLate(digest))) {
            // The first verdict stands, and is reported again: its report follows the write that recorded it, so a
            // crash between the two (this may be that message, redelivered) loses no report.
            return EventOutcome.tooLateAgain(event);
        }
        if (s.status == WindowStatus.MERGED) {
            throw new IllegalStateException("events offered to merged window " + s.ref + "; re-plan the key's sessions");
        }
        // A time window's split (claimed for SIZE_LIMIT) goes on counting its next revision: not after its close.
        boolean splitting = s.status == WindowStatus.CLAIMED && s.claim.reason() == CloseReason.SIZE_LIMIT && !s.kind.isSession();
        boolean afterClose = s.status == WindowStatus.CLOSED || (s.status == WindowStatus.CLAIMED && !splitting);
        Lateness lateness = Lateness.classify(bounds.endMillis(), watermark, config.allowedLateness());
        // A stored window that still accepts (OPEN, or a split going on): the watermark may have passed its end before
        // a visit fired it (a too-late event never creates a window).
        boolean storedAccepting = (s.status == WindowStatus.OPEN || splitting) && s.version > 0;
        // Under fire-and-reconcile an incomplete window takes its missing events until it is final, whatever the
        // watermark says: after its close as corrections, and before it (its end passed, not yet fired) into the
        // revision it is about to fire.
        boolean reconciling = (afterClose || storedAccepting) && config.knowsCompleteness()
                && config.incomplete().mode() == IncompletePolicy.Mode.FIRE_AND_RECONCILE && !s.completeness.isComplete();
        boolean isFinal = !now.isBefore(finalAt(s));
        // A window held while incomplete waits for its missing events until the hard deadline, whatever the watermark
        // says: a HELD one, a stored OPEN one under HOLD, which this very decision holds if they are still missing, and
        // a continuation closed before it counted any, whose revision this is.
        boolean holding = s.status == WindowStatus.HELD || (storedAccepting && config.holdsIncomplete())
                || Decisions.heldContinuation(config, s.status, s.closedUnemitted, s.completeness);
        // A later copy of the event comes to this window again only if it holds the event's time (a time window always
        // does; a session the event would extend does not) and is stored: a new time window is stored for the verdict
        // alone (closed at once, WindowMachine), a new session is not (its key keeps the verdict).
        boolean keeps = (s.version > 0 || !s.kind.isSession()) && s.bounds.contains(event.eventTime().toEpochMilli());
        if (isFinal) {
            // Final by this worker's clock, which another worker's may put a little earlier (clocks of containers are
            // skewed): there, a copy of the event would find the window not final yet and count it. So the verdict is
            // recorded like any other, not left to the window's being final.
            return tooLate(s, event, digest, finalReason(s), keeps);
        }
        if (lateness == Lateness.TOO_LATE && !reconciling && !holding) {
            // Too late by this batch's watermark, which another copy of the event (a redelivery, a producer's resend)
            // may meet older, capped by its own delivery: the verdict is recorded where that copy comes, so that it is
            // too late as well, and the event is never both counted and too late.
            return tooLate(s, event, digest, lateReason(bounds, watermark), keeps);
        }
        Disposition refused = refusal(s, event, afterClose, hadRoom);
        if (refused != null) {
            return new EventOutcome(event, refused);
        }
        count(s, event, bounds, now);
        if (afterClose) {
            s.lateEvents++;
            if (s.pendingSince == null) {
                s.pendingSince = now;
            }
            return new EventOutcome(event, Disposition.CORRECTION);
        }
        if (lateness != Lateness.ON_TIME) {
            s.lateEvents++;
            return new EventOutcome(event, Disposition.ACCEPTED_LATE);
        }
        return new EventOutcome(event, Disposition.ACCEPTED);
    }

    /** A too-late verdict, recorded in the window's write when the window {@code keeps} it (see {@link #offer}). */
    private static EventOutcome tooLate(WindowState.Builder s, Event event, String digest, String reason, boolean keeps) {
        if (keeps) {
            s.eventIds.add(EventIdDigest.tooLate(digest));
        }
        return new EventOutcome(event, Disposition.TOO_LATE, reason, keeps ? Verdict.RECORDED : Verdict.UNKEPT);
    }

    /**
     * Why an event that is neither a duplicate nor too late cannot be counted now, or null. A time window whose
     * revision is full splits (the machine cuts it and offers the event again to the next revision); only when the
     * next one is full as well, before the split's emission committed, does the event wait (RETRY). A session never
     * reopens (its continuation is a new session), so a flushed session takes its late events as corrections even past
     * the bound. Nor is a session cut inside a millisecond: it freezes just after the last event it took, so an event
     * of that millisecond left to the continuation would fall inside the cut session, late for it (rule 7); a session
     * the batch fills takes the rest of that millisecond's events past the bound. Not a merge of sessions that
     * already hold the bound between them ({@code hadRoom} false): the planner cuts the earliest of them instead.
     */
    private Disposition refusal(WindowState.Builder s, Event event, boolean afterClose, boolean hadRoom) {
        if (s.kind.isSession() && afterClose) {
            return null;
        }
        if (s.revisionEvents < config.bounds().maxEventsPerWindow()) {
            return null;
        }
        if (config.bounds().onOverflow() == Bounds.Overflow.SIDE_OUTPUT) {
            return Disposition.WINDOW_FULL;
        }
        return s.kind.isSession() && hadRoom && event.eventTime().equals(s.lastTakenTime) ? null : Disposition.RETRY;
    }

    /** Folds a new event into the accumulating revision; a session takes the batch's bounds. */
    private void count(WindowState.Builder s, Event event, Interval bounds, Instant now) {
        s.eventIds.add(EventIdDigest.of(event.eventId()));
        s.bounds = s.bounds.span(bounds);
        SentinelSpec sentinel = config.triggers().sentinel();
        boolean countsAsEvent = sentinel == null || sentinel.countsAsEvent() || !EventValues.matches(sentinel.when(), event);
        if (countsAsEvent) {
            s.aggregates = s.aggregates.add(event);
            s.revisionEvents++;
            s.firstEventTime = min(s.firstEventTime, event.eventTime());
            s.lastEventTime = max(s.lastEventTime, event.eventTime());
        }
        s.lastTakenTime = max(s.lastTakenTime, event.eventTime());
        s.completeness = s.completeness.observe(config, event);
        s.lastArrival = max(s.lastArrival, now);
    }

    private String lateReason(Interval bounds, long watermark) {
        return "watermark " + IsoMillis.format(watermark) + " passed window end " + IsoMillis.format(bounds.endMillis())
                + " + allowed lateness " + config.allowedLateness();
    }

    private String finalReason(WindowState.Builder s) {
        String what = s.cutBy == null ? "its window" : "its session, cut by " + cutName(s.cutBy) + ",";
        return "arrived after " + what + " became final at " + IsoMillis.format(finalAt(s)) + ": hard deadline "
                + IsoMillis.format(s.hardDeadline) + " (maxLifetime " + config.triggers().maxLifetime() + ") + allowed lateness "
                + config.allowedLateness();
    }

    /** The configuration field behind a cut, as a user wrote it. */
    private static String cutName(CloseReason reason) {
        return switch (reason) {
            case SIZE_LIMIT -> "bounds.maxEventsPerWindow";
            case SESSION_LIMIT -> "the key's live-session limit";
            default -> "triggers.maxLifetime";
        };
    }


    /** Processing time after which the window accepts nothing more: hard deadline plus allowed lateness. */
    private Instant finalAt(WindowState.Builder s) {
        return s.hardDeadline.plus(config.allowedLateness());
    }

}
