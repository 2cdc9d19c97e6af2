package dev.fanin.testkit;

import java.util.Map;

/**
 * What {@link TemplateResources} created on a local endpoint, by the template's logical ids.
 *
 * @param tableName           the name of the template's DynamoDB table (prefix + logical id)
 * @param queueUrls           queue URL by logical id, for every {@code AWS::SQS::Queue} of the template
 * @param busName             the name of the template's EventBridge bus (prefix + logical id)
 * @param tapQueueUrl         LOCAL ONLY, not in the template: a queue that receives every event put on the bus
 *                            (through a catch-all rule), so tests and the local runner can see what was emitted
 * @param functionEnvironment the template's {@code Globals.Function.Environment.Variables} evaluated against these
 *                            local resources, e.g. {@code FANIN_TABLE_NAME}: what a handler would see when deployed
 */
public record LocalResources(
        String tableName,
        Map<String, String> queueUrls,
        String busName,
        String tapQueueUrl,
        Map<String, String> functionEnvironment) {

    public LocalResources {
        queueUrls = Map.copyOf(queueUrls);
        functionEnvironment = Map.copyOf(functionEnvironment);
    }

    /** The URL of the queue with this logical id; fails naming the known ids when there is none. */
    public String queueUrl(String logicalId) {
        String url = queueUrls.get(logicalId);
        if (url == null) {
            throw new IllegalArgumentException("no queue '" + logicalId + "' in the template; queues: "
                    + queueUrls.keySet());
        }
        return url;
    }
}
