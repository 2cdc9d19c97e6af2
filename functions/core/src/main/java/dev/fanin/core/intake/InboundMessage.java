package dev.fanin.core.intake;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One SQS message as the Lambda function sees it, free of any AWS type.
 *
 * @param messageId  the SQS message id; the event id of events whose pipeline configures none (except S3 records)
 * @param body       the message body, exactly as received
 * @param attributes SQS system attributes, e.g. {@code SentTimestamp} (epoch milliseconds as a string) and
 *                   {@code ApproximateReceiveCount}; never null
 * @param receivedAt processing time at which fanin received the message (the Lambda clock, or a simulated one)
 */
public record InboundMessage(String messageId, String body, Map<String, String> attributes, Instant receivedAt) {

    /** The SQS attribute holding the time the producer sent the message, in epoch milliseconds. */
    public static final String SENT_TIMESTAMP = "SentTimestamp";

    public InboundMessage {
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    }

    /** The producer's send time from {@code SentTimestamp}, or empty when the attribute is absent or not a number. */
    public Optional<Instant> sentAt() {
        String sent = attributes.get(SENT_TIMESTAMP);
        if (sent == null || !sent.matches("\\d{1,15}")) {
            return Optional.empty();
        }
        return Optional.of(Instant.ofEpochMilli(Long.parseLong(sent)));
    }

    /** The processing-time reference that {@code maxFuture}/{@code maxPast} are measured from: sent time, else receipt. */
    public Instant sentAtOrReceivedAt() {
        return sentAt().orElse(receivedAt);
    }
}
