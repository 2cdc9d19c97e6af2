package dev.fanin.cli.replay;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One line of a trace: an SQS message and when it arrived in the input queue (processing time).
 *
 * @param line       1-based line number in the trace file, for messages and generated ids
 * @param at         arrival time: the message's {@code SentTimestamp} and the earliest moment it can be delivered
 * @param body       the message body exactly as SQS would hand it over
 * @param messageId  the SQS message id (generated from the line number when the trace gives none)
 * @param attributes SQS system attributes given by the trace; they override the replay's defaults
 */
public record TraceMessage(int line, Instant at, String body, String messageId, Map<String, String> attributes) {

    public TraceMessage {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(messageId, "messageId");
        attributes = Map.copyOf(attributes);
    }
}
