package dev.fanin.lambda;

import java.time.Duration;
import java.time.Instant;

/**
 * When an invocation must stop taking new work (a sweep new windows, an ingest batch new windows or keys): the
 * function's remaining time minus a safety margin for the flushes in flight and the final metrics write. The margin
 * is a fifth of the remaining time, at most {@link #MAX_MARGIN}, so a short timeout still works most of its time and a
 * long one keeps a fixed reserve.
 */
final class InvocationDeadline {

    static final Duration MAX_MARGIN = Duration.ofSeconds(10);

    private InvocationDeadline() {
    }

    /**
     * @param now       the function's clock at the start of the invocation
     * @param remaining {@code Context.getRemainingTimeInMillis()} at that moment
     * @return a deadline in [now, now + remaining); exactly now when nothing remains
     */
    static Instant of(Instant now, Duration remaining) {
        if (remaining.isNegative() || remaining.isZero()) {
            return now;
        }
        Duration fifth = Duration.ofMillis(remaining.toMillis() / 5); // whole milliseconds, like the remaining time
        Duration margin = fifth.compareTo(MAX_MARGIN) < 0 ? fifth : MAX_MARGIN;
        return now.plus(remaining).minus(margin);
    }
}
