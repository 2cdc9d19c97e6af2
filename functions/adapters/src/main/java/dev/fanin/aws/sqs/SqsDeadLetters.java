package dev.fanin.aws.sqs;

import dev.fanin.core.config.SinkLimits;
import dev.fanin.core.port.DeadLetters;
import dev.fanin.core.text.SinkText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * The input dead-letter queue: the original body unchanged, the original message attributes copied, and
 * {@code fanin-reason-code} (the machine-readable code), {@code fanin-reason} (the text) and
 * {@code fanin-original-message-id} added.
 *
 * <p>What is added always fits the message: SQS allows 10 message attributes and
 * {@link SinkLimits#FANIN_QUEUE_MESSAGE_BYTES} for body and attributes together. The code (a few enum names) always
 * goes whole. The reason comes first after it: it is cut
 * at {@value #MAX_REASON_BYTES} bytes, or shorter when the body leaves less room. Then the originals are kept in name
 * order while they fit, up to the limit less one, and {@code fanin-dropped-attributes} lists the names of those left
 * out. Originals with an empty value (which SQS refuses) are left out the same way. An original named like one of
 * ours is replaced by ours. Characters SQS refuses in the reason are escaped ({@link SqsAttributes#string}).
 */
public final class SqsDeadLetters implements DeadLetters {

    public static final String REASON_ATTRIBUTE = "fanin-reason";
    public static final String REASON_CODE_ATTRIBUTE = "fanin-reason-code";
    public static final String ORIGINAL_ID_ATTRIBUTE = "fanin-original-message-id";
    public static final String DROPPED_ATTRIBUTE = "fanin-dropped-attributes";
    public static final int MAX_ATTRIBUTES = 10;
    private static final Set<String> OWN_ATTRIBUTES = Set.of(REASON_ATTRIBUTE, REASON_CODE_ATTRIBUTE,
            ORIGINAL_ID_ATTRIBUTE, DROPPED_ATTRIBUTE);
    /** A reason longer than this (an S3 notification with many bad records) is cut, with a note of its length. */
    static final int MAX_REASON_BYTES = 8_192;
    private static final int MAX_NOTE_BYTES = 1024;
    static final String EMPTY_BODY = "(empty body)";

    /**
     * Whether an attribute is one fanin puts on a dead letter (its reason, code, original id, dropped names), not the
     * producer's: a producer's own {@code fanin-}-named attribute is the producer's, kept and redriven like any.
     */
    public static boolean isOwn(String attributeName) {
        return OWN_ATTRIBUTES.contains(attributeName);
    }

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsDeadLetters(SqsClient sqs, String queueUrl) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
    }

    @Override
    public void send(String messageId, String body, Map<String, String> attributes, String code, String reason) {
        sqs.sendMessage(request(messageId, body, attributes, code, reason));
    }

    /**
     * @throws IllegalArgumentException when the body leaves no room for fanin's attributes (it is within a few hundred
     *                                  bytes of the queue's limit): the message is not sent, to be redelivered and
     *                                  moved by SQS's redrive in the end
     */
    SendMessageRequest request(String messageId, String body, Map<String, String> attributes, String code, String reason) {
        String sent = body(body);
        long bodyBytes = SinkText.utf8Length(sent);
        Map<String, MessageAttributeValue> added = attributes(messageId, bodyBytes, attributes, code, reason);
        long total = SqsAttributes.messageBytes(bodyBytes, added);
        if (total > SinkLimits.FANIN_QUEUE_MESSAGE_BYTES) {
            throw new IllegalArgumentException("the dead letter would be " + total + " bytes, over the dead-letter queue's "
                    + SinkLimits.FANIN_QUEUE_MESSAGE_BYTES + ": a body of " + bodyBytes + " bytes leaves no room for fanin's attributes");
        }
        return SendMessageRequest.builder()
                .queueUrl(queueUrl)
                .messageBody(sent)
                .messageAttributes(added)
                .build();
    }

    /**
     * The body sent: the original, or {@value #EMPTY_BODY} for an empty one (SQS refuses an empty body; SQS itself never
     * delivers one, but a replay or a direct invocation can).
     */
    public static String body(String original) {
        return original == null || original.isEmpty() ? EMPTY_BODY : original;
    }

    /**
     * The attributes of the dead letter of a message with {@code bodyBytes} of body (public so that the simulation's
     * sink checks judge exactly what this adapter sends).
     */
    public static Map<String, MessageAttributeValue> attributes(String messageId, long bodyBytes, Map<String, String> originals,
                                                                String code, String reason) {
        Map<String, MessageAttributeValue> result = new LinkedHashMap<>();
        long room = SinkLimits.FANIN_QUEUE_MESSAGE_BYTES - bodyBytes;
        MessageAttributeValue id = SqsAttributes.string(messageId);
        room -= SqsAttributes.bytes(ORIGINAL_ID_ATTRIBUTE, id);
        MessageAttributeValue codeValue = SqsAttributes.string(code == null || code.isEmpty() ? "UNSPECIFIED" : code);
        room -= SqsAttributes.bytes(REASON_CODE_ATTRIBUTE, codeValue);
        // Room for a note of dropped originals is kept before the reason takes its share, so that the note fits.
        long noteRoom = DROPPED_ATTRIBUTE.length() + SqsAttributes.STRING.length() + MAX_NOTE_BYTES;
        String why = reason == null || reason.isEmpty() ? "unspecified" : reason;
        MessageAttributeValue because = SqsAttributes.string(cut(SinkText.escapeInvalid(why),
                Math.min(MAX_REASON_BYTES, room - noteRoom - REASON_ATTRIBUTE.length() - SqsAttributes.STRING.length())));
        room -= SqsAttributes.bytes(REASON_ATTRIBUTE, because);
        Map<String, String> candidates = new TreeMap<>();
        List<String> dropped = new ArrayList<>();
        originals.forEach((name, value) -> {
            if (isOwn(name)) {
                return;
            }
            if (value == null || value.isEmpty()) {
                dropped.add(name);
            } else {
                candidates.put(name, value);
            }
        });
        int slots = MAX_ATTRIBUTES - 3;
        long fitting = candidates.entrySet().stream().mapToLong(e -> SqsAttributes.bytes(e.getKey(), SqsAttributes.string(e.getValue()))).sum();
        if (candidates.size() > slots || !dropped.isEmpty() || fitting > room) {
            slots--;
            room -= noteRoom;
        }
        for (Map.Entry<String, String> original : candidates.entrySet()) {
            MessageAttributeValue value = SqsAttributes.string(original.getValue());
            long bytes = SqsAttributes.bytes(original.getKey(), value);
            if (result.size() < slots && bytes <= room) {
                result.put(original.getKey(), value);
                room -= bytes;
            } else {
                dropped.add(original.getKey());
            }
        }
        result.put(REASON_CODE_ATTRIBUTE, codeValue);
        result.put(REASON_ATTRIBUTE, because);
        result.put(ORIGINAL_ID_ATTRIBUTE, id);
        if (!dropped.isEmpty()) {
            dropped.sort(null);
            result.put(DROPPED_ATTRIBUTE, SqsAttributes.string(cut(String.join(",", dropped), MAX_NOTE_BYTES)));
        }
        return result;
    }

    /** {@code text} within {@code maxBytes} UTF-8 bytes, ending in a note of what was cut when it does not fit. */
    private static String cut(String text, long maxBytes) {
        if (SinkText.utf8Length(text) <= maxBytes) {
            return text;
        }
        String note = "...(" + SinkText.utf8Length(text) + " bytes)";
        return SinkText.cutToBytes(text, (int) Math.max(1, maxBytes - note.length())) + note;
    }
}
