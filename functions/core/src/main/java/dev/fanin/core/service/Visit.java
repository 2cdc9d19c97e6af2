package dev.fanin.core.service;

import dev.fanin.core.machine.Visitor;
import java.time.Instant;
import java.util.Objects;

/**
 * One time-driven visit (sweeper or timer): the watermark and processing time it decides at, who makes it (the timer
 * message, or the sweeper), and where the writes it makes leave their follow-ups (claims to flush, timers to arm).
 */
record Visit(long watermark, Instant now, Visitor visitor, Followups followups) {

    Visit {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(visitor, "visitor");
        Objects.requireNonNull(followups, "followups");
    }

    /** The same visit deciding at {@code later}: a retry after a lost write, so that a claim's lease counts from it. */
    Visit at(Instant later) {
        return new Visit(watermark, later, visitor, followups);
    }
}
