package dev.fanin.core.port;

import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.List;

/**
 * Per-window wake-ups for low close latency. Best effort: a lost timer only delays a close until the sweeper's next
 * run, which is what makes closure certain.
 */
public interface WindowTimers {

    /** Arms a wake-up for {@code ref} at {@code dueAt} (or as close to it as the transport allows). */
    void arm(WindowRef ref, Instant dueAt, Instant now);

    /**
     * Arms several wake-ups, in as few transport calls as it allows (one per wake-up unless overridden). Tries every
     * one; a failure is thrown after the others were tried.
     */
    default void armAll(List<Wakeup> wakeups, Instant now) {
        RuntimeException first = null;
        for (Wakeup w : wakeups) {
            try {
                arm(w.ref(), w.dueAt(), now);
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** One wake-up: the window and when it falls due. */
    record Wakeup(WindowRef ref, Instant dueAt) { }
}
