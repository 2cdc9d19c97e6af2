package dev.fanin.core.window;

/**
 * A half-open event-time interval {@code [startMillis, endMillis)}: an event at {@code t} is inside when
 * {@code startMillis <= t < endMillis}. An event exactly at {@code endMillis} belongs to the next window.
 */
public record Interval(long startMillis, long endMillis) {

    public Interval {
        if (endMillis <= startMillis) {
            throw new IllegalArgumentException("interval end " + endMillis + " must be after start " + startMillis);
        }
    }

    public boolean contains(long t) {
        return startMillis <= t && t < endMillis;
    }

    /** True when the two intervals share at least one instant. Touching intervals ([0,5) and [5,9)) do not. */
    public boolean overlaps(Interval other) {
        return startMillis < other.endMillis && other.startMillis < endMillis;
    }

    /** This interval cut just after {@code lastMillis} (a session cut short ends after the last event it took). */
    public Interval endingJustAfter(long lastMillis) {
        long end = EventTimeMath.plus(lastMillis, 1);
        return end < endMillis ? new Interval(startMillis, end) : this;
    }

    public Interval span(Interval other) {
        return new Interval(Math.min(startMillis, other.startMillis), Math.max(endMillis, other.endMillis));
    }

    public long lengthMillis() {
        return endMillis - startMillis;
    }
}
