package dev.fanin.aws.sqs;

import dev.fanin.core.port.DeadLetters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * The input dead-letter queue: the original body unchanged, the original message attributes copied, and
 * {@code fanin-reason} and {@code fanin-original-message-id} added.
 *
 * <p>SQS allows 10 message attributes. Ours always fit: when the originals do not all fit beside them, the
 * originals are kept in name order up to the limit less one, and {@code fanin-dropped-attributes} lists the names of
 * those left out. Originals with an empty value (which SQS refuses) are left out the same way. An original named
 * like one of ours is replaced by ours.
 */
public final class SqsDeadLetters implements DeadLetters {

    public static final String REASON_ATTRIBUTE = "fanin-reason";
    public static final String ORIGINAL_ID_ATTRIBUTE = "fanin-original-message-id";
    public static final String DROPPED_ATTRIBUTE = "fanin-dropped-attributes";
    public static final int MAX_ATTRIBUTES = 10;
    private static final int MAX_NOTE_CHARS = 1024;

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsDeadLetters(SqsClient sqs, String queueUrl) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
    }

    @Override
    public void send(String messageId, String body, Map<String, String> attributes, String reason) {
        sqs.sendMessage(request(messageId, body, attributes, reason));
    }

    SendMessageRequest request(String messageId, String body, Map<String, String> attributes, String reason) {
        return SendMessageRequest.builder()
                .queueUrl(queueUrl)
                .messageBody(body)
                .messageAttributes(attributes(messageId, attributes, reason))
                .build();
    }

    static Map<String, MessageAttributeValue> attributes(String messageId, Map<String, String> originals, String reason) {
        Map<String, String> candidates = new TreeMap<>();
        List<String> dropped = new ArrayList<>();
        originals.forEach((name, value) -> {
            if (name.equals(REASON_ATTRIBUTE) || name.equals(ORIGINAL_ID_ATTRIBUTE) || name.equals(DROPPED_ATTRIBUTE)) {
                return;
            }
            if (value == null || value.isEmpty()) {
                dropped.add(name);
            } else {
                candidates.put(name, value);
            }
        });
        int room = MAX_ATTRIBUTES - 2;
        if (candidates.size() > room || !dropped.isEmpty()) {
            room--;
        }
        Map<String, MessageAttributeValue> result = new LinkedHashMap<>();
        for (Map.Entry<String, String> original : candidates.entrySet()) {
            if (result.size() < room) {
                result.put(original.getKey(), SqsAttributes.string(original.getValue()));
            } else {
                dropped.add(original.getKey());
            }
        }
        result.put(REASON_ATTRIBUTE, SqsAttributes.string(reason == null || reason.isEmpty() ? "unspecified" : reason));
        result.put(ORIGINAL_ID_ATTRIBUTE, SqsAttributes.string(messageId));
        if (!dropped.isEmpty()) {
            dropped.sort(null);
            String note = String.join(",", dropped);
            result.put(DROPPED_ATTRIBUTE, SqsAttributes.string(
                    note.length() <= MAX_NOTE_CHARS ? note : note.substring(0, MAX_NOTE_CHARS) + "..."));
        }
        return result;
    }
}
