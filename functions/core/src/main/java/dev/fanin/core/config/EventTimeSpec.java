package dev.fanin.core.config;

import java.time.Duration;

/**
 * Where an event's event time comes from.
 *
 * @param path      field holding the time; null means "always use the fallback"
 * @param format    how the field is written
 * @param fallback  what to do when the field is absent (an unparsable value is always a rejection)
 * @param maxFuture an event time further than this ahead of the SQS sent time is rejected
 * @param maxPast   an event time further than this behind the SQS sent time is rejected
 */
public record EventTimeSpec(FieldPath path, TimeFormat format, TimeFallback fallback, Duration maxFuture, Duration maxPast) {

    public enum TimeFormat { ISO_8601, EPOCH_MILLIS, EPOCH_SECONDS, AUTO }

    public enum TimeFallback {
        /** Use the SQS {@code SentTimestamp} attribute (processing time of the producer). */
        SQS_SENT_TIMESTAMP,
        /** Reject the message with a reason. */
        REJECT
    }
}
