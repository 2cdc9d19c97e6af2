package dev.fanin.core.config;

import java.time.Duration;

/**
 * Late events.
 *
 * @param tooLate         what happens to an event beyond the allowed lateness
 * @param correctionDelay late events within lateness arriving within this delay of each other are coalesced into one
 *                        correction revision
 */
public record LatePolicy(TooLate tooLate, Duration correctionDelay) {

    public enum TooLate {
        /** Send the event with its reason to the late-event side output (queue or event). */
        SIDE_OUTPUT,
        /** Count it and drop it; only where the configuration says so explicitly. */
        DROP
    }
}
