package dev.fanin.cli.replay;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The replay's processing-time clock: stands still while a handler runs and is moved forward by the replay between
 * invocations, so a replay's outcome does not depend on how fast the machine or the local endpoint is.
 */
final class SimulatedClock extends Clock {

    private volatile Instant now;

    SimulatedClock(Instant start) {
        this.now = start;
    }

    /** @throws IllegalArgumentException when asked to go back in time */
    void advanceTo(Instant instant) {
        if (instant.isBefore(now)) {
            throw new IllegalArgumentException("the simulated clock cannot go back from " + now + " to " + instant);
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
        throw new UnsupportedOperationException("the simulated clock is UTC only");
    }
}
