package dev.fanin.core.watermark;

import dev.fanin.core.window.EventTimeMath;
import java.time.Duration;

/**
 * How late an event is for a window, judged by the watermark when it is processed (not by its own event time:
 * every event in a window has an event time below the window's end).
 */
public enum Lateness {
    /** {@code watermark < end}: the window has not closed by event time. */
    ON_TIME,
    /** {@code end <= watermark < end + allowedLateness}: the event corrects the window (a new revision). */
    LATE,
    /** {@code watermark >= end + allowedLateness}: past the grace period; side output or drop, and counted. */
    TOO_LATE;

    /** Classifies against a window ending at {@code windowEndMillis} (exclusive), overflow-safe. */
    public static Lateness classify(long windowEndMillis, long watermarkMillis, Duration allowedLateness) {
        if (watermarkMillis < windowEndMillis) {
            return ON_TIME;
        }
        long graceEnd = EventTimeMath.plus(windowEndMillis, allowedLateness.toMillis());
        return watermarkMillis < graceEnd ? LATE : TOO_LATE;
    }
}
