package dev.fanin.bench;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Processing time of the simulation: set by the event loop, never read from the machine. */
final class SimClock extends Clock {

    private Instant now;

    SimClock(Instant start) {
        this.now = start;
    }

    void set(Instant instant) {
        if (instant.isBefore(now)) {
            throw new IllegalArgumentException("simulated time runs forward: " + instant + " is before " + now);
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
        throw new UnsupportedOperationException("the simulated clock is UTC only");
    }
}
