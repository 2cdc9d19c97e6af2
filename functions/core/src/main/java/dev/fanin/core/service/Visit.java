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

    /**
     * The same visit deciding at {@code later} by the watermark read then: a retry after a lost write, so that a claim's
     * lease counts from it, and a due time computed from it is not late (it adds the time the watermark still needs
     * to {@code later}, which an older watermark would overstate).
     */
    Visit at(Instant later, long watermarkThen) {
        return new Visit(watermarkThen, later, visitor, followups);
    }

    /** This visit again after a lost write of {@code pipeline}'s window: {@link #at} the clock's time now. */
    Visit again(FaninEngine engine, String pipeline) {
        Instant later = engine.clock().instant();
        return at(later, engine.watermark(pipeline, Long.MIN_VALUE, later));
    }
}
