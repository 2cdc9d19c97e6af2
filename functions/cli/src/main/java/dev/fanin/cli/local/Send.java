package dev.fanin.cli.local;

import java.time.Duration;
import java.util.Objects;

/**
 * One message to put on the input queue.
 *
 * @param at   when, relative to the start of the traffic
 * @param body the SQS message body, verbatim
 * @param what one line for the live view, e.g. "alert-storm: alert 3 of payments-api (duplicate)"
 */
record Send(Duration at, String body, String what) {

    Send {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(what, "what");
        if (at.isNegative()) {
            throw new IllegalArgumentException("a send time cannot be negative: " + at);
        }
    }
}
