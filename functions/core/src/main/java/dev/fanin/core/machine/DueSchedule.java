package dev.fanin.core.machine;

import dev.fanin.core.window.WindowStatus;
import java.time.Instant;

/**
 * When a window is next looked at, once the machine has decided its status: the timer chain's next message (exact)
 * and the stored due time a due bucket lists (rounded up to the due granularity, and only ever early). A step of
 * {@link WindowMachine}, on its working copy.
 */
final class DueSchedule {

    /** What a step arms and lists: the timer's next message (null: none) and the due bucket's listing time. */
    record Listed(Instant timerDue, Instant listingDue) {
    }

    private final long granularityMillis;

    DueSchedule(long granularityMillis) {
        this.granularityMillis = granularityMillis;
    }

    /**
     * Sets the stored due time and the timer chain of {@code s}, whose {@code dueAt} holds the exact next check: the
     * timer gets it exactly, the due buckets a rounded-up copy.
     *
     * @param writingAnyway the step writes whatever the schedule says (events counted, a commit, by a writer)
     */
    Listed schedule(WindowState.Builder s, WindowState before, boolean writingAnyway, Visitor visitor, Instant now) {
        Instant exactDue = s.dueAt;
        Instant timerDue = null;
        Instant listingDue;
        if (s.status == WindowStatus.CLAIMED) {
            // A claim is normally committed within the same invocation: no timer for it, and the stored due time only
            // moves if the lease would end before it (a takeover waits for the sweep).
            listingDue = roundUp(s.leaseUntil, s.leaseUntil);
            s.dueAt = keepsStoredDue(before.dueAt(), listingDue, now, writingAnyway) ? before.dueAt() : listingDue;
        } else {
            if (exactDue != null) {
                boolean ownMessage = visitor instanceof Visitor.Timer timer && timer.continues(s.timer);
                if (startsTimerChain(s.timer, exactDue, now, writingAnyway) || (ownMessage && s.timer.id() == 0)) {
                    // (A chain stored before chains had ids is replaced by one that has, at its own message.)
                    s.timer = new TimerChain(before.version() + 1, exactDue);
                    timerDue = exactDue;
                } else if (ownMessage) {
                    // The live chain's message, early: its next message needs no write, the chain keeps its identity.
                    timerDue = exactDue;
                }
            }
            listingDue = roundUp(exactDue, s.hardDeadline);
            s.dueAt = keepsStoredDue(before.dueAt(), listingDue, now, writingAnyway) ? before.dueAt() : listingDue;
        }
        return new Listed(timerDue, listingDue);
    }

    /**
     * Whether a step that finds the window next due at {@code exactDue} starts a new timer chain (a write, which makes
     * the current chain's messages stale): when the window has none, or when its chain's first message has not come
     * yet and was armed for a later time. A chain past its first message was re-armed at a time only its message
     * knows: a visit leaves it alone (starting a chain would cost a write), a write that happens anyway ({@code
     * writingAnyway}: events counted, a commit) replaces it, since the window may be due earlier now (a watermark that
     * jumped). Between writes, such a window closes at its chain's next message or at the next sweep, whichever comes
     * first. A chain lost to a transport failure leaves the close to the sweeper.
     */
    private static boolean startsTimerChain(TimerChain chain, Instant exactDue, Instant now, boolean writingAnyway) {
        if (chain == null) {
            return true;
        }
        return chain.armedFor().isAfter(now) ? exactDue.isBefore(chain.armedFor()) : writingAnyway;
    }

    /**
     * Whether the stored due time can stay: it must not be later than the new one (a due bucket may send the sweeper
     * too early, never too late). A write that happens anyway also replaces a stored time already past: the sweeper
     * may have listed the window again at a later time that only its bucket knows, so the writer lists it afresh
     * (see {@code DueCoverage}). Other visitors keep a past time; the sweeper lists such a window at
     * {@link Transition#listingDue()} without a write.
     */
    private static boolean keepsStoredDue(Instant stored, Instant listingDue, Instant now, boolean writingAnyway) {
        return stored != null && listingDue != null && !stored.isAfter(listingDue) && !(writingAnyway && !stored.isAfter(now));
    }

    /**
     * Rounds up to the due granularity (never earlier than the exact time, so a sweep never visits too soon), but never
     * past {@code cap} (the hard deadline, which does not move and so needs no rounding): the hard-lifetime close is
     * never delayed by rounding.
     */
    Instant roundUp(Instant exact, Instant cap) {
        if (exact == null) {
            return null;
        }
        if (!exact.isBefore(cap)) {
            return exact;
        }
        long ms = exact.toEpochMilli();
        long rounded = Math.floorDiv(ms + granularityMillis - 1, granularityMillis) * granularityMillis;
        Instant up = Instant.ofEpochMilli(rounded);
        return up.isAfter(cap) ? cap : up;
    }
}
