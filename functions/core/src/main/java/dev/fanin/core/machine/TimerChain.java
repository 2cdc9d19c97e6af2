package dev.fanin.core.machine;

import java.time.Instant;
import java.util.Objects;

/**
 * A window's live timer chain: the wake-up messages that follow one another until the window closes. Only the write
 * that starts a chain stores anything; a timer visit that finds the window not yet due arms the chain's next message
 * without a write. A window has at most one live chain: starting a chain replaces the stored value, and a message of
 * any other chain is stale and arms nothing (at-least-once delivery can still duplicate a message, and so a
 * chain, until the window closes).
 *
 * @param id        the chain's identity, carried by each of its messages: the window version written by the write that
 *                  started it, so no two chains of a window share it (1 for one started as a window kept for too-late
 *                  verdicts opens, met as a new window: it never had a chain); 0 for a chain stored before chains had ids
 * @param armedFor  the due time the chain's first message was armed for. Until then the chain's next message is
 *                  known to come at this time, so a step that finds the window due earlier starts a new chain; after
 *                  it, only the chain's own messages know when the next comes
 */
public record TimerChain(long id, Instant armedFor) {

    public TimerChain {
        Objects.requireNonNull(armedFor, "armedFor");
    }
}
