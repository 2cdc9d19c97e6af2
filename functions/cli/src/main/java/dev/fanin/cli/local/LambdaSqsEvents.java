package dev.fanin.cli.local;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Builds the {@link SQSEvent} the Lambda service hands an SQS-triggered function: per record the message id,
 * receipt handle, body, MD5s, the system attributes (ApproximateReceiveCount, SentTimestamp, SenderId,
 * ApproximateFirstReceiveTimestamp, ...), the message attributes, {@code eventSource=aws:sqs}, the queue's ARN and
 * the region. Pure: the SDK messages in, the event out.
 */
public final class LambdaSqsEvents {

    private LambdaSqsEvents() {
    }

    public static SQSEvent of(List<Message> messages, String queueArn, String region) {
        SQSEvent event = new SQSEvent();
        event.setRecords(messages.stream().map(m -> record(m, queueArn, region)).toList());
        return event;
    }

    static SQSEvent.SQSMessage record(Message message, String queueArn, String region) {
        SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
        record.setMessageId(message.messageId());
        record.setReceiptHandle(message.receiptHandle());
        record.setBody(message.body());
        record.setMd5OfBody(message.md5OfBody());
        record.setMd5OfMessageAttributes(message.md5OfMessageAttributes());
        record.setAttributes(new LinkedHashMap<>(message.attributesAsStrings()));
        Map<String, SQSEvent.MessageAttribute> attributes = new LinkedHashMap<>();
        message.messageAttributes().forEach((name, value) -> attributes.put(name, attribute(value)));
        record.setMessageAttributes(attributes);
        record.setEventSource("aws:sqs");
        record.setEventSourceArn(queueArn);
        record.setAwsRegion(region);
        return record;
    }

    private static SQSEvent.MessageAttribute attribute(MessageAttributeValue value) {
        SQSEvent.MessageAttribute attribute = new SQSEvent.MessageAttribute();
        attribute.setDataType(value.dataType());
        attribute.setStringValue(value.stringValue());
        if (value.binaryValue() != null) {
            attribute.setBinaryValue(value.binaryValue().asByteBuffer());
        }
        attribute.setStringListValues(value.stringListValues());
        attribute.setBinaryListValues(value.binaryListValues().stream().map(b -> b.asByteBuffer()).toList());
        return attribute;
    }
}
