package dev.fanin.core.port;

import dev.fanin.core.window.WindowRef;
import java.time.Instant;

/**
 * Per-window wake-ups for low close latency. Best effort: a lost timer only delays a close until the sweeper's next
 * run, which is what makes closure certain.
 */
public interface WindowTimers {

    /** Arms a wake-up for {@code ref} at {@code dueAt} (or as close to it as the transport allows). */
    void arm(WindowRef ref, Instant dueAt, Instant now);
}
