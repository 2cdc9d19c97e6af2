package dev.fanin.sim;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * What each service fanin writes to accepts, written from the services' own documentation and independently of
 * fanin's code (which states the same rules in {@code SinkText} and {@code SinkLimits}), so a fanin bug in either
 * cannot hide here. Every breach is recorded as a violation.
 */
final class SinkRules {

    /** SQS SendMessage: a message (body and every attribute's name, type and value) of at most this many bytes. */
    static final long SQS_QUEUE_DEFAULT_BYTES = 262_144;
    static final long SQS_LARGEST_BYTES = 1_048_576;
    /** EventBridge PutEvents: source + detail type + detail (UTF-8), 14 bytes for a time, each resource. */
    static final long EVENTBRIDGE_ENTRY_BYTES = 262_144;
    /** DynamoDB: an item of at most 400 KB, attribute names included. */
    static final long DYNAMODB_ITEM_BYTES = 409_600;

    final List<String> violations = new CopyOnWriteArrayList<>();

    /** SQS's character rule: #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF. */
    static boolean sqsAllows(String text) {
        return text.codePoints().allMatch(c -> c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
                || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF));
    }

    /** Whether {@code text} has a UTF-8 encoding (no unpaired surrogate), as DynamoDB and EventBridge need. */
    static boolean encodes(String text) {
        return text.codePoints().noneMatch(c -> c >= 0xD800 && c <= 0xDFFF);
    }

    static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    void sqsMessage(String where, String body, Map<String, MessageAttributeValue> attributes, long limit) {
        long bytes = utf8(body);
        if (body.isEmpty()) {
            violations.add(where + ": empty SQS body");
        }
        if (!sqsAllows(body)) {
            violations.add(where + ": SQS body with a character SQS refuses: " + first(body));
        }
        if (attributes.size() > 10) {
            violations.add(where + ": " + attributes.size() + " SQS attributes, over 10");
        }
        for (Map.Entry<String, MessageAttributeValue> a : attributes.entrySet()) {
            String value = a.getValue().stringValue();
            bytes += utf8(a.getKey()) + utf8(a.getValue().dataType()) + utf8(value);
            if (value == null || value.isEmpty()) {
                violations.add(where + ": empty SQS attribute " + a.getKey());
            } else if (!sqsAllows(value)) {
                violations.add(where + ": SQS attribute " + a.getKey() + " with a character SQS refuses: " + first(value));
            }
        }
        if (bytes > limit) {
            violations.add(where + ": SQS message of " + bytes + " bytes, over " + limit);
        }
    }

    void eventBridgeEntry(String where, String source, String detailType, String detail) {
        long bytes = utf8(source) + utf8(detailType) + utf8(detail);
        if (bytes > EVENTBRIDGE_ENTRY_BYTES) {
            violations.add(where + ": EventBridge entry of " + bytes + " bytes, over " + EVENTBRIDGE_ENTRY_BYTES);
        }
        if (!encodes(detail) || !sqsAllows(detail)) {
            violations.add(where + ": EventBridge detail with an unpaired surrogate or a non-character: " + first(detail));
        }
    }

    void dynamoDbItem(String where, long bytes, String state) {
        if (bytes > DYNAMODB_ITEM_BYTES) {
            violations.add(where + ": DynamoDB item of " + bytes + " bytes, over " + DYNAMODB_ITEM_BYTES);
        }
        if (!encodes(state)) {
            violations.add(where + ": DynamoDB string with an unpaired surrogate: " + first(state));
        }
    }

    /** SQS FIFO group and deduplication ids: at most 128 of alphanumerics and punctuation. */
    void fifoId(String where, String id) {
        if (id.isEmpty() || id.length() > 128 || !id.chars().allMatch(c -> c >= 0x21 && c <= 0x7E)) {
            violations.add(where + ": FIFO id SQS refuses: " + id);
        }
    }

    private static String first(String text) {
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (!(c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000)) {
                return String.format("U+%04X at %d", c, i);
            }
            i += Character.charCount(c);
        }
        return "(none)";
    }
}
