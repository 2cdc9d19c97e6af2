package dev.fanin.aws.sqs;

import dev.fanin.core.intake.InboundMessage;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * SQS messages as the core's deliveries: the one place that reads SQS's system attributes for the core. The producer's
 * message attributes ride along unchanged, for the dead letter; the system attributes (SQS's own facts about the
 * delivery) do not: a dead letter, and a message redriven from it, carries what the producer sent.
 */
public final class SqsDeliveries {

    /** The system attribute holding the time the producer sent the message, in epoch milliseconds. */
    public static final String SENT_TIMESTAMP = "SentTimestamp";
    /** The system attribute counting the deliveries of the message, this one included. */
    public static final String RECEIVE_COUNT = "ApproximateReceiveCount";
    /** The system attribute holding when a consumer first received the message, in epoch milliseconds. */
    public static final String FIRST_RECEIVE_TIMESTAMP = "ApproximateFirstReceiveTimestamp";

    /** Read for every message of every batch: compiled once. */
    private static final Pattern MILLIS = Pattern.compile("\\d{1,15}");
    private static final Pattern COUNT = Pattern.compile("\\d{1,9}");

    private SqsDeliveries() {
    }

    /**
     * @param systemAttributes   the message's system attributes as Lambda's SQS event (or ReceiveMessage) gives them;
     *                           null for none
     * @param producerAttributes the message attributes its producer set, by name, each as its string value (a
     *                           binary one as the empty string, which the dead letter lists as dropped); null for none
     */
    public static InboundMessage inbound(String messageId, String body, Map<String, String> systemAttributes,
                                         Map<String, String> producerAttributes, Instant receivedAt) {
        Map<String, String> system = systemAttributes == null ? Map.of() : systemAttributes;
        return new InboundMessage(messageId, body, attempt(system), sentAt(system).orElse(null), receivedAt, producerAttributes,
                originalId(producerAttributes), millis(system, FIRST_RECEIVE_TIMESTAMP).orElse(null));
    }

    /** What a redrive says the message re-sends ({@value SqsDeadLetters#ORIGINAL_ID_ATTRIBUTE}); null for a producer's own. */
    private static String originalId(Map<String, String> producerAttributes) {
        String original = producerAttributes == null ? null : producerAttributes.get(SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE);
        return original == null || original.isEmpty() ? null : original;
    }

    /** A delivery whose producer set no message attributes. */
    public static InboundMessage inbound(String messageId, String body, Map<String, String> systemAttributes, Instant receivedAt) {
        return inbound(messageId, body, systemAttributes, Map.of(), receivedAt);
    }

    /** The system attributes SQS gives a message sent at {@code sentAt} on its {@code receiveCount}th delivery. */
    public static Map<String, String> systemAttributes(Instant sentAt, int receiveCount) {
        return Map.of(SENT_TIMESTAMP, Long.toString(sentAt.toEpochMilli()), RECEIVE_COUNT, Integer.toString(receiveCount));
    }

    /** {@code SentTimestamp}, or empty when it is absent or not a number. */
    static Optional<Instant> sentAt(Map<String, String> attributes) {
        return millis(attributes, SENT_TIMESTAMP);
    }

    private static Optional<Instant> millis(Map<String, String> attributes, String name) {
        String value = attributes.get(name);
        if (!readable(name, value)) {
            return Optional.empty();
        }
        return Optional.of(Instant.ofEpochMilli(Long.parseLong(value)));
    }

    /** {@code ApproximateReceiveCount}, or 1 (a first delivery) when it is absent or not a positive number. */
    static int attempt(Map<String, String> attributes) {
        String count = attributes.get(RECEIVE_COUNT);
        if (!readable(RECEIVE_COUNT, count)) {
            return 1;
        }
        return Math.max(1, Integer.parseInt(count));
    }

    /**
     * Whether intake reads {@code value} of the system attribute {@code name} ({@link #SENT_TIMESTAMP},
     * {@link #FIRST_RECEIVE_TIMESTAMP}: epoch milliseconds of up to 15 digits; {@link #RECEIVE_COUNT}: up to 9); any
     * other value is taken as absent. A trace replayed as SQS deliveries is checked by the same rule.
     */
    public static boolean readable(String name, String value) {
        return value != null && (RECEIVE_COUNT.equals(name) ? COUNT : MILLIS).matcher(value).matches();
    }
}
