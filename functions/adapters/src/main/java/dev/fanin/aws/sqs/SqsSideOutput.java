package dev.fanin.aws.sqs;

import dev.fanin.core.port.SideOutput;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * The side output as an SQS queue: the record is the body; {@code fanin-kind} and {@code fanin-pipeline} ride as
 * string message attributes so that consumers and redrive tools can filter without parsing. A send failure
 * propagates, so the caller fails the message that produced the record and SQS redelivers it.
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

    SendMessageRequest request(String kind, String pipeline, String json) {
        return SendMessageRequest.builder()
                .queueUrl(queueUrl)
                .messageBody(json)
                .messageAttributes(Map.of(
                        KIND_ATTRIBUTE, SqsAttributes.string(kind),
                        PIPELINE_ATTRIBUTE, SqsAttributes.string(pipeline)))
                .build();
    }
}
