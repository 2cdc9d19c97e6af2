package dev.fanin.core.machine;

import java.time.Instant;
import java.util.List;

/**
 * A decision of the machine, as a value: the state to store (conditional on the version read), what happened to each
 * event, and what the caller must do after the write succeeds. The caller executes it and nothing else.
 *
 * @param next       the state to write; equal to the input when {@code write} is false
 * @param write      whether anything changed that must be stored
 * @param outcomes   per offered event, in the order offered
 * @param action     what to do once the write is applied
 * @param timerDue   when to arm the next message of the timer chain {@code next.timer()}, null for none: once the
 *                   write is applied, or at once when there is nothing to write (a chain continued by its own message)
 * @param listingDue the time at which a due bucket should list the window: its next visit, rounded up to the due
 *                   granularity (null: never). The stored {@code next.dueAt()} may be earlier (it only has to be
 *                   early); the sweeper lists a window whose stored due time has passed at this time instead, without
 *                   a write
 * @param absorbed   the sessions a merge absorbed into {@code next}: they leave the store in the same write (ids, in
 *                   the order merged; empty for every other decision)
 */
public record Transition(WindowState next, boolean write, List<EventOutcome> outcomes, Action action, Instant timerDue,
                         Instant listingDue, List<String> absorbed) {

    public Transition {
        outcomes = List.copyOf(outcomes);
        absorbed = List.copyOf(absorbed);
    }

    /** A decision that absorbs no session. */
    public Transition(WindowState next, boolean write, List<EventOutcome> outcomes, Action action, Instant timerDue,
                      Instant listingDue) {
        this(next, write, outcomes, action, timerDue, listingDue, List.of());
    }

    /** Nothing to write: the state stands as read. */
    static Transition none(WindowState state, List<EventOutcome> outcomes) {
        return new Transition(state, false, outcomes, Action.NONE, null, state.dueAt());
    }

    /** Whether any event offered was counted. */
    public boolean counted() {
        return outcomes.stream().anyMatch(o -> o.disposition().counted());
    }

    /** This decision, written whatever it found, with {@code action} to follow (a claim the caller asked for). */
    Transition claiming(Action action) {
        return new Transition(next, true, outcomes, action, timerDue, listingDue, absorbed);
    }

    /** Whether a timer message is to be armed (see {@code timerDue}). */
    public boolean armsTimer() {
        return timerDue != null;
    }

    /** What follows a successful write. */
    public enum Action {
        /** Nothing. */
        NONE,
        /** The write claimed a revision: emit {@code next.claim()} with fence {@code next.fence()}, then commit. */
        EMIT,
        /** A time trigger found the window incomplete under the HOLD policy: it is now HELD (alert). */
        HELD
    }
}
