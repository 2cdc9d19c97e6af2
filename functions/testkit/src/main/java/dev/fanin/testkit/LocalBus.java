package dev.fanin.testkit;

import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Creates an {@code AWS::Events::EventBus} and, for local observation only, a "tap": a queue that a catch-all rule
 * on the bus feeds, so everything emitted can be read back. The tap is not part of the deployed template.
 */
final class LocalBus {

    /** A created bus and its tap queue. */
    record Created(String name, String arn, String tapQueueUrl) {
    }

    /** Name is honoured by being replaced with prefix + logical id; the rest does not change delivery. */
    private static final Set<String> NOT_NEEDED_LOCALLY = Set.of("Name", "Description", "Tags", "KmsKeyIdentifier",
            "DeadLetterConfig", "EventSourceName", "Policy", "LogConfig");
    /** Matches every event (every event has a source). */
    static final String CATCH_ALL_PATTERN = "{\"source\":[{\"exists\":true}]}";

    private LocalBus() {
    }

    static Created create(EventBridgeClient events, SqsClient sqs, String logicalId, String name,
            Map<String, Object> properties) {
        PropertyCheck.onlyKnown(logicalId, "AWS::Events::EventBus", properties, Set.of(), NOT_NEEDED_LOCALLY);
        String arn = events.createEventBus(r -> r.name(name)).eventBusArn();

        String tapName = name + "Tap";
        String tapUrl = sqs.createQueue(r -> r.queueName(tapName)).queueUrl();
        String tapArn = sqs.getQueueAttributes(r -> r.queueUrl(tapUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        String ruleArn = events.putRule(r -> r.name(tapName).eventBusName(name).eventPattern(CATCH_ALL_PATTERN)
                .description("fanin local tap: copies every event on the bus to " + tapName)).ruleArn();
        // What AWS would require for the rule to deliver; local backends accept either way.
        String policy = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                + "\"Principal\":{\"Service\":\"events.amazonaws.com\"},\"Action\":\"sqs:SendMessage\","
                + "\"Resource\":\"" + tapArn + "\",\"Condition\":{\"ArnEquals\":{\"aws:SourceArn\":\"" + ruleArn
                + "\"}}}]}";
        sqs.setQueueAttributes(r -> r.queueUrl(tapUrl).attributes(Map.of(QueueAttributeName.POLICY, policy)));
        events.putTargets(r -> r.rule(tapName).eventBusName(name).targets(t -> t.id("tap").arn(tapArn)));
        return new Created(name, arn, tapUrl);
    }
}
