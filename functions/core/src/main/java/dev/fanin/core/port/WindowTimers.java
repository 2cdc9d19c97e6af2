package dev.fanin.core.port;

import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Per-window wake-ups for low close latency. Best effort: a lost timer only delays a close until the sweeper's next
 * run, which is what makes closure certain.
 */
public interface WindowTimers {

    /** Arms the wake-up (at its due time, or as close to it as the transport allows). */
    void arm(Wakeup wakeup, Instant now);

    /**
     * Arms several wake-ups, in as few transport calls as it allows (one per wake-up unless overridden). Tries every
     * one.
     *
     * @return the wake-ups that could not be armed, empty when all were
     */
    default List<Wakeup> armAll(List<Wakeup> wakeups, Instant now) {
        List<Wakeup> notArmed = new ArrayList<>();
        for (Wakeup w : wakeups) {
            try {
                arm(w, now);
            } catch (RuntimeException e) {
                notArmed.add(w);
            }
        }
        return notArmed;
    }

    /**
     * One wake-up, the message of a timer chain.
     *
     * @param ref   the window
     * @param dueAt when the window is next due, as the arming step computed it
     * @param chain the id of the timer chain the message belongs to ({@code TimerChain.id()}): a visit continues the
     *              chain only while the window still has it
     */
    record Wakeup(WindowRef ref, Instant dueAt, long chain) {
        public Wakeup {
            Objects.requireNonNull(ref, "ref");
            Objects.requireNonNull(dueAt, "dueAt");
            if (chain < 0) {
                throw new IllegalArgumentException("timer chain ids are never negative: " + chain);
            }
        }
    }
}
