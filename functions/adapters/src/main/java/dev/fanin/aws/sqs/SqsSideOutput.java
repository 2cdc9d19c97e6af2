package dev.fanin.aws.sqs;

import dev.fanin.core.config.SinkLimits;
import dev.fanin.core.port.SideOutput;
import dev.fanin.core.text.SinkText;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * The side output as an SQS queue: the record is the body; {@code fanin-kind} and {@code fanin-pipeline} ride as
 * string message attributes so that consumers and redrive tools can filter without parsing. A send failure
 * propagates, so the caller fails the message that produced the record and SQS redelivers it; so does a record too
 * large for the queue (a too-late event's payload re-serialised), which ends dead-lettered with its body and reason.
 */
public final class SqsSideOutput implements SideOutput {

    public static final String KIND_ATTRIBUTE = "fanin-kind";
    public static final String PIPELINE_ATTRIBUTE = "fanin-pipeline";

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsSideOutput(SqsClient sqs, String queueUrl) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
    }

    @Override
    public void send(String kind, String pipeline, String json) {
        sqs.sendMessage(request(kind, pipeline, json));
    }

    /** @throws IllegalArgumentException when the record does not fit an SQS message (the caller fails its message) */
    SendMessageRequest request(String kind, String pipeline, String json) {
        Map<String, MessageAttributeValue> attributes = Map.of(
                KIND_ATTRIBUTE, SqsAttributes.string(kind),
                PIPELINE_ATTRIBUTE, SqsAttributes.string(pipeline));
        long bytes = SqsAttributes.messageBytes(SinkText.utf8Length(json), attributes);
        if (bytes > SinkLimits.FANIN_QUEUE_MESSAGE_BYTES) {
            throw new IllegalArgumentException("the " + kind + " record is " + bytes + " bytes, over the side-output queue's "
                    + SinkLimits.FANIN_QUEUE_MESSAGE_BYTES);
        }
        return SendMessageRequest.builder()
                .queueUrl(queueUrl)
                .messageBody(json)
                .messageAttributes(attributes)
                .build();
    }
}
