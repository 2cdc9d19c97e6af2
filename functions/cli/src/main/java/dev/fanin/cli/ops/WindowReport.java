package dev.fanin.cli.ops;

import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.window.WindowKind;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;

/**
 * One window as an operator reads it: where it stands and why it has not closed, from its decoded state, its
 * pipeline, the pipeline's watermark and the time. Pure.
 *
 * @param overdue  open {@link #OVERDUE_AFTER} or more past its hard deadline: the sweeper does not get to it (the
 *                 WindowsNotClosing alarm)
 * @param missing  the missing members, ascending, at most 1,000; empty when not tracked
 * @param why      one sentence: what the window waits for, or what is wrong
 */
public record WindowReport(WindowState state, Duration age, boolean overdue, Long expected, long seen, OptionalLong missingCount,
                           List<Integer> missing, boolean missingTruncated, String why) {

    /** The sweeper's own grace before a due window counts as overdue (its OverdueWindows metric). */
    public static final Duration OVERDUE_AFTER = FaninSettings.defaults().overdueAfter();

    public static WindowReport of(WindowState w, PipelineConfig pipeline, long watermark, Instant now) {
        Completeness c = w.completeness();
        boolean overdue = w.status().isOpen() && !now.isBefore(w.hardDeadline().plus(OVERDUE_AFTER));
        List<Integer> missing = c.missingMembers().map(Completeness.MissingMembers::members).orElse(List.of());
        boolean truncated = c.missingMembers().map(Completeness.MissingMembers::truncated).orElse(false);
        return new WindowReport(w, Duration.between(w.openedAt(), now), overdue, c.expected() == null ? null : c.expected().longValue(),
                c.seen(), c.missingCount(), missing, truncated, why(w, pipeline, watermark, now, overdue));
    }

    /** "3 of 4 (missing 2)", "5 events" when the pipeline knows no expected count. */
    public String completeness() {
        if (expected == null) {
            return seen + (seen == 1 ? " event" : " events");
        }
        String text = seen + " of " + expected;
        if (!missing.isEmpty()) {
            text += " (missing " + Members.ranges(missing) + (missingTruncated ? ", ..." : "") + ")";
        } else if (missingCount.isPresent() && missingCount.getAsLong() > 0) {
            text += " (" + missingCount.getAsLong() + " missing)";
        }
        return text;
    }

    private static String why(WindowState w, PipelineConfig pipeline, long watermark, Instant now, boolean overdue) {
        String deadline = "hard deadline " + Times.relative(w.hardDeadline(), now);
        if (overdue && w.status() == WindowStatus.CLAIMED) {
            // Its own reason says more: a claim past its lease is an emission failing or a crash, not a sweeper missing it.
            return "OVERDUE: " + claimed(w, now);
        }
        if (overdue) {
            return "OVERDUE: still " + w.status() + " past its " + deadline + "; the sweeper is not reaching it (see OverdueWindows, "
                    + "the sweeper's errors, StoreUnavailable)";
        }
        return switch (w.status()) {
            case OPEN -> waitingFor(w, pipeline, watermark) + "; " + deadline;
            case HELD -> "held incomplete (incomplete.policy hold) until complete or its " + deadline + ", then " + atDeadline(pipeline);
            case CLAIMED -> claimed(w, now);
            case CLOSED -> closed(w, pipeline, deadline, now);
            case MERGED -> "merged into another session";
        };
    }

    /** A closed window: done, or waiting with late events (held, as a continuation's, or due as a correction). */
    private static String closed(WindowState w, PipelineConfig pipeline, String deadline, Instant now) {
        if (w.pendingSince() == null) {
            return w.keepsVerdictsOnly()
                    ? "closed, never emitted: its events so far were too late (kept here, so that their copies are too)"
                    : "closed (revision " + w.committedRevision() + ")";
        }
        String continuation = "closed; its late events, a continuation of the window (revision " + w.revision();
        if (w.heldContinuation(pipeline)) {
            return continuation + "), are held incomplete (incomplete.policy hold) until complete or its " + deadline + ", then "
                    + atDeadline(pipeline);
        }
        return (w.closedUnemitted() != null ? continuation + ", corrects nothing), are due " : "closed; a correction with late events is due ")
                + Times.relative(w.dueAt(), now);
    }

    private static String atDeadline(PipelineConfig pipeline) {
        return pipeline.incomplete().atDeadline() == IncompletePolicy.AtDeadline.DEAD_LETTER ? "dead-lettered" : "fired flagged incomplete";
    }

    private static String waitingFor(WindowState w, PipelineConfig pipeline, long watermark) {
        String end = (w.kind() == WindowKind.SESSION ? "its last event + gap (" : "its end (") + Times.iso(w.bounds().endMillis()) + ")";
        if (watermark >= w.bounds().endMillis()) {
            // Nothing left to wait for: a visit closes it (or holds it), unless the timers and the sweeper are behind.
            return "due: the watermark (" + Times.iso(watermark) + ") is past " + end + "; waiting for its timer or the next sweep "
                    + "(if it stays: OverdueWindows, SweeperNotSweeping)";
        }
        String event = "waiting for the watermark (" + Times.iso(watermark) + ") to pass " + end;
        if (pipeline.knowsCompleteness() && !w.completeness().isComplete()) {
            OptionalLong missing = w.completeness().missingCount();
            event = (missing.isPresent() ? "waiting for " + missing.getAsLong() + " more expected events" : "waiting for the expected count")
                    + ", or " + event.substring("waiting for ".length());
        }
        return event;
    }

    private static String claimed(WindowState w, Instant now) {
        String what = "claimed (revision " + w.claim().revision() + ", " + w.claim().reason() + ", fence " + w.fence() + ")";
        if (now.isBefore(w.leaseUntil())) {
            return what + ": being emitted; lease until " + Times.relative(w.leaseUntil(), now);
        }
        return what + ": its lease ended " + Times.relative(w.leaseUntil(), now) + " without a commit (a crash, or emission failing: "
                + "see EmitFailures); the next sweep or timer takes it over with the same aggregate id";
    }

    public boolean isStatus(WindowStatus status) {
        return state.status() == status;
    }
}
