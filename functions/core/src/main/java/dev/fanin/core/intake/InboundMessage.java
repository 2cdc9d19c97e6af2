package dev.fanin.core.intake;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One delivery of an input message, free of any transport's types and attribute names: each handler sets these facts
 * from its own transport (for SQS, {@code dev.fanin.aws.sqs.SqsDeliveries}), so a new input is a new handler.
 *
 * @param messageId  the transport's id of the message, the same on every delivery
 * @param body       the message body, exactly as received
 * @param attempt    which delivery of the message this is, counting from 1
 * @param sentTime   when the producer sent the message, or null when the transport does not say
 * @param receivedAt processing time at which fanin received the message (the Lambda clock, or a simulated one)
 * @param attributes the transport's own attributes of the message, opaque to the core: they go with its dead letter;
 *                   never null
 * @param originalMessageId the id of the message as its producer sent it: {@code messageId}, or for a message re-sent
 *                   from the dead-letter queue (a redrive), the id of the message it re-sends; what stands for the
 *                   message where it is the event id, so the same message redriven twice is one event
 * @param firstReceivedTime when the transport first handed the message to a consumer (it left the queue: what follows,
 *                   a poller batching it with others, is not waiting in a backlog), or null when it does not say
 */
public record InboundMessage(String messageId, String body, int attempt, Instant sentTime, Instant receivedAt,
                             Map<String, String> attributes, String originalMessageId, Instant firstReceivedTime) {

    public InboundMessage {
        if (attempt < 1) {
            throw new IllegalArgumentException("a delivery attempt counts from 1, was " + attempt);
        }
        Objects.requireNonNull(receivedAt, "receivedAt");
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        originalMessageId = originalMessageId == null ? messageId : originalMessageId;
    }

    /** A message as its producer sent it (not re-sent from the dead-letter queue). */
    public InboundMessage(String messageId, String body, int attempt, Instant sentTime, Instant receivedAt, Map<String, String> attributes) {
        this(messageId, body, attempt, sentTime, receivedAt, attributes, messageId, null);
    }

    /** A first delivery that carries no attributes of its transport. */
    public InboundMessage(String messageId, String body, Instant sentTime, Instant receivedAt) {
        this(messageId, body, 1, sentTime, receivedAt, Map.of());
    }

    /** The producer's send time, or empty when the transport does not say. */
    public Optional<Instant> sentAt() {
        return Optional.ofNullable(sentTime);
    }

    /** When the message left the queue: first handed to a consumer, else (the transport does not say) received here. */
    public Instant leftQueueAt() {
        return firstReceivedTime != null ? firstReceivedTime : receivedAt;
    }

    /** The processing-time reference that {@code maxFuture}/{@code maxPast} are measured from: sent time, else receipt. */
    public Instant sentAtOrReceivedAt() {
        return sentTime != null ? sentTime : receivedAt;
    }

    /** Whether an earlier delivery of this message may have done some of its work (and died before finishing). */
    public boolean redelivered() {
        return attempt > 1;
    }
}
