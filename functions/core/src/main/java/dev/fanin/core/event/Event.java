package dev.fanin.core.event;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One event after intake: unwrapped, matched to a pipeline, with its key, id and times extracted.
 *
 * <p>Two clocks: {@code eventTime} is when the event happened (from the payload, or the message's sent time as a
 * fallback); {@code arrivedAt} is processing time, when fanin received it. Windows are assigned by event time only.
 *
 * @param pipeline        the matched pipeline's name
 * @param key             the group key (the key paths' values joined with {@link #KEY_SEPARATOR})
 * @param eventId         the dedupe identity of the event, unique within its pipeline and key
 * @param eventTime       event time
 * @param eventTimeIsFallback whether eventTime came from the fallback rather than the payload
 * @param arrivedAt       processing time of receipt (the delivery's receipt, or the simulated clock)
 * @param payload         the unwrapped payload (the S3 record for S3 notifications)
 * @param envelope        the envelope the payload came from (the whole body for RAW)
 * @param sourceMessageId the id of the message the event came in, to report a failure for exactly that message
 */
public record Event(
        String pipeline,
        String key,
        String eventId,
        Instant eventTime,
        boolean eventTimeIsFallback,
        Instant arrivedAt,
        JsonNode payload,
        JsonNode envelope,
        String sourceMessageId) {

    /** Joins multi-part keys; a key part containing it is escaped by intake, so keys never collide. */
    public static final String KEY_SEPARATOR = "|";

    public Event {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(eventTime, "eventTime");
        Objects.requireNonNull(arrivedAt, "arrivedAt");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(sourceMessageId, "sourceMessageId");
    }
}
