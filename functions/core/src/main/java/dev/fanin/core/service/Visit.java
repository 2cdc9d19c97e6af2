package dev.fanin.core.service;

import dev.fanin.core.machine.Visitor;
import dev.fanin.core.watermark.Watermark;
import java.time.Instant;
import java.util.Objects;

/**
 * One time-driven visit (sweeper or timer): the watermark and processing time it decides at, who makes it (the timer
 * message, or the sweeper), and where the writes it makes leave their follow-ups (claims to flush, timers to arm).
 */
record Visit(Watermark watermark, Instant now, Visitor visitor, Followups followups) {

    Visit {
        Objects.requireNonNull(watermark, "watermark");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(visitor, "visitor");
        Objects.requireNonNull(followups, "followups");
    }

    /**
     * This visit again after a lost write of {@code pipeline}'s window, at the clock's time now and by the watermark read
     * then: a claim's lease counts from the retry, and a due time computed from it is not late (it adds the time the
     * watermark still needs to now, which an older watermark would overstate).
     */
    Visit again(FaninEngine engine, String pipeline) {
        Instant later = engine.clock().instant();
        return new Visit(engine.watermarkAt(pipeline, later), later, visitor, followups);
    }

    /** This visit deciding no earlier than {@code at} (its watermark as it was: an older one only waits longer). */
    Visit notBefore(Instant at) {
        return at.isAfter(now) ? new Visit(watermark, at, visitor, followups) : this;
    }
}
