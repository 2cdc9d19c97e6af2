package dev.fanin.core.memory;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A processing-time clock moved only by its owner, and only forward: it stands still while a handler runs, so a
 * replay's or a benchmark's outcome does not depend on how fast the machine is. UTC only.
 */
public final class ForwardClock extends Clock {

    private volatile Instant now;

    public ForwardClock(Instant start) {
        this.now = start;
    }

    /** @throws IllegalArgumentException when asked to go back in time */
    public void advanceTo(Instant instant) {
        if (instant.isBefore(now)) {
            throw new IllegalArgumentException("the clock cannot go back from " + now + " to " + instant);
        }
        now = instant;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (zone.equals(ZoneOffset.UTC)) {
            return this;
        }
        throw new UnsupportedOperationException("the clock is UTC only");
    }
}
