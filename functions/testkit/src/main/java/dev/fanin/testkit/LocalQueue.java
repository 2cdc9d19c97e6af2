package dev.fanin.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Creates an {@code AWS::SQS::Queue} from its evaluated template properties. */
final class LocalQueue {

    /** A created queue: what Ref and Fn::GetAtt of it evaluate to. */
    record Created(String name, String url, String arn) {
    }

    /** Template properties that are queue attributes of the same name and meaning. */
    private static final Set<String> PLAIN_ATTRIBUTES = Set.of("VisibilityTimeout", "MessageRetentionPeriod",
            "DelaySeconds", "MaximumMessageSize", "ReceiveMessageWaitTimeSeconds", "FifoQueue",
            "ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit", "SqsManagedSseEnabled");
    /** Template properties whose value is a JSON document in the queue attribute. */
    private static final Set<String> JSON_ATTRIBUTES = Set.of("RedrivePolicy", "RedriveAllowPolicy");
    /**
     * A KMS key has no local counterpart (encryption is not observable through the SQS API). QueueName is honoured
     * by being replaced with prefix + logical id.
     */
    private static final Set<String> NOT_NEEDED_LOCALLY = Set.of("QueueName", "Tags", "KmsMasterKeyId",
            "KmsDataKeyReusePeriodSeconds");
    private static final ObjectMapper JSON = new ObjectMapper();

    private LocalQueue() {
    }

    static Created create(SqsClient sqs, String logicalId, String baseName, Map<String, Object> properties) {
        Set<String> honoured = new java.util.HashSet<>(PLAIN_ATTRIBUTES);
        honoured.addAll(JSON_ATTRIBUTES);
        PropertyCheck.onlyKnown(logicalId, "AWS::SQS::Queue", properties, honoured, NOT_NEEDED_LOCALLY);
        String at = logicalId + ".Properties";
        Map<String, String> attributes = new HashMap<>();
        for (Map.Entry<String, Object> property : properties.entrySet()) {
            String key = property.getKey();
            if (PLAIN_ATTRIBUTES.contains(key)) {
                attributes.put(key, TemplateEvaluator.scalar(property.getValue(), at + "." + key));
            } else if (JSON_ATTRIBUTES.contains(key)) {
                attributes.put(key, json(property.getValue(), at + "." + key));
            }
        }
        boolean fifo = Boolean.parseBoolean(attributes.getOrDefault("FifoQueue", "false"));
        if (!fifo) {
            attributes.remove("FifoQueue"); // SQS rejects FifoQueue=false on create
        }
        String name = fifo ? baseName + ".fifo" : baseName;
        String url = sqs.createQueue(r -> r.queueName(name).attributesWithStrings(attributes)).queueUrl();
        String arn = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        return new Created(name, url, arn);
    }

    /**
     * A policy document: a string is passed as written, a mapping is serialised. Numbers such as maxReceiveCount
     * become JSON numbers when they look like integers, as CloudFormation sends them.
     */
    private static String json(Object value, String at) {
        if (value instanceof String text) {
            return text;
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(at + ": expected a JSON mapping, got " + value);
        }
        Map<String, Object> document = new HashMap<>();
        map.forEach((key, item) -> document.put(String.valueOf(key),
                item instanceof String text && text.matches("-?\\d+") ? Long.valueOf(text) : item));
        try {
            return JSON.writeValueAsString(document);
        } catch (JsonProcessingException unexpected) {
            throw new IllegalArgumentException(at + ": cannot serialise " + value, unexpected);
        }
    }
}
