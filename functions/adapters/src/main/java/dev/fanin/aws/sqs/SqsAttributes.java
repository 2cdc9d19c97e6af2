package dev.fanin.aws.sqs;

import dev.fanin.core.text.SinkText;
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

    /** What an attribute counts toward SQS's message size: the UTF-8 bytes of its name, type and value. */
    static long bytes(String name, MessageAttributeValue value) {
        return SinkText.utf8Length(name) + SinkText.utf8Length(value.dataType()) + SinkText.utf8Length(value.stringValue());
    }
}
