package dev.fanin.aws.sqs;

import dev.fanin.core.text.SinkText;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/** String message attributes as SQS takes them, and what they count toward the message size. */
final class SqsAttributes {

    static final String STRING = "String";

    private SqsAttributes() { }

    /**
     * A string attribute. Characters SQS refuses (an unpaired surrogate, U+FFFE, a control other than tab and line
     * breaks) are written as {@code \\uXXXX} text: a refused attribute fails the whole send.
     */
    static MessageAttributeValue string(String value) {
        return MessageAttributeValue.builder().dataType(STRING).stringValue(SinkText.escapeInvalid(value)).build();
    }

    /** What an attribute counts toward SQS's message size: the bytes of its name, type and value (string or binary). */
    static long bytes(String name, MessageAttributeValue value) {
        long valueBytes = value.stringValue() != null ? SinkText.utf8Length(value.stringValue())
                : value.binaryValue() != null ? value.binaryValue().asByteArray().length : 0;
        return SinkText.utf8Length(name) + SinkText.utf8Length(value.dataType()) + valueBytes;
    }

    /** What a message counts toward SQS's size limit: its body's UTF-8 bytes and every attribute's ({@link #bytes}). */
    static long messageBytes(long bodyBytes, Map<String, MessageAttributeValue> attributes) {
        return bodyBytes + attributes.entrySet().stream().mapToLong(a -> bytes(a.getKey(), a.getValue())).sum();
    }
}
