package dev.fanin.aws;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounded retries of the failed entries of a batch call: {@code maxAttempts} calls at most per entry, sleeping
 * {@code firstBackoff}, then twice that, and so on (capped at {@link #MAX_BACKOFF}) between attempts.
 */
public record RetryPolicy(int maxAttempts, Duration firstBackoff, Sleeper sleeper) {

    public static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        Objects.requireNonNull(firstBackoff, "firstBackoff");
        Objects.requireNonNull(sleeper, "sleeper");
    }

    /** Three attempts, 100 ms then 200 ms apart, on the current thread. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(3, Duration.ofMillis(100), Sleeper.THREAD);
    }

    /** The wait after failed attempt {@code attempt} (1-based). */
    public Duration backoffAfter(int attempt) {
        Duration backoff = firstBackoff.multipliedBy(1L << Math.min(attempt - 1, 20));
        return backoff.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff;
    }
}
