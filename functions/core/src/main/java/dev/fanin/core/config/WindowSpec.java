package dev.fanin.core.config;

import java.time.Duration;

/**
 * The window type. All windows are half-open intervals {@code [start, end)} in event time, in epoch milliseconds.
 */
public sealed interface WindowSpec {

    /** Fixed, non-overlapping windows: {@code start = floor((t - offset) / size) * size + offset}. */
    record Tumbling(Duration size, Duration offset) implements WindowSpec { }

    /** Overlapping windows of {@code size}, one starting every {@code slide}; an event is in {@code size/slide} of them. */
    record Sliding(Duration size, Duration slide) implements WindowSpec { }

    /** A window per burst of activity: {@code [first event, last event + gap)}; sessions that touch merge. */
    record Session(Duration gap) implements WindowSpec { }
}
