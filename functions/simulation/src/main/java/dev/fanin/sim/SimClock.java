package dev.fanin.sim;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The simulation's one true processing time (epoch milliseconds), advanced only by the simulation loop. Workers never
 * read it directly: each sees it through its own {@link #skewed} view, as Lambda containers see their host clocks.
 * Time never goes backwards.
 */
public final class SimClock {

    private long nowMillis;

    public SimClock(Instant start) {
        this.nowMillis = start.toEpochMilli();
    }

    public long millis() {
        return nowMillis;
    }

    public Instant instant() {
        return Instant.ofEpochMilli(nowMillis);
    }

    /** Moves time forward to {@code millis}; a value in the past is ignored (time is monotone). */
    public void advanceTo(long millis) {
        nowMillis = Math.max(nowMillis, millis);
    }

    /** A worker's view: the true time plus a fixed skew (positive: the worker's clock runs ahead). */
    public Clock skewed(long skewMillis) {
        return new Skewed(this, skewMillis);
    }

    private static final class Skewed extends Clock {
        private final SimClock source;
        private final long skewMillis;

        Skewed(SimClock source, long skewMillis) {
            this.source = source;
            this.skewMillis = skewMillis;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(source.nowMillis + skewMillis);
        }
    }
}
