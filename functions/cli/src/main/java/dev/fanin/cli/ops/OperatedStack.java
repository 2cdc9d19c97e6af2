package dev.fanin.cli.ops;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The resources of one deployed fanin stack, as the commands that operate it need them: a resource the command does
 * not use is null unless named ({@link StackOptions#resolve}).
 *
 * @param stack           the stack name, when given
 * @param configLocation  where the stack's functions read their pipelines ({@code FANIN_CONFIG}: a file, the jar, S3,
 *                        SSM or AppConfig), read the same way here
 * @param dueShards       the stack's {@code DueShards}
 * @param maxReceiveCount the stack's {@code MaxReceiveCount}
 */
public record OperatedStack(Optional<String> stack, String tableName, String inputQueueUrl, String deadLetterQueueUrl,
                            String timerQueueUrl, String lateEventsQueueUrl, String busName, String emitQueueUrl,
                            String configLocation, int dueShards, int maxReceiveCount) {

    /**
     * The environment the stack's functions run with (template.yaml, {@code Globals.Function.Environment}), so that a
     * close from the command line goes through the functions' own runtime: same store, emitter, timers and settings.
     */
    public Map<String, String> functionEnvironment(Map<String, String> processEnvironment, String region) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("FANIN_TABLE_NAME", tableName);
        env.put("FANIN_CONFIG", configLocation);
        env.put("FANIN_EMIT_BUS_NAME", busName);
        env.put("FANIN_EMIT_QUEUE_URL", emitQueueUrl);
        env.put("FANIN_TIMER_QUEUE_URL", timerQueueUrl);
        env.put("FANIN_SIDE_OUTPUT_QUEUE_URL", lateEventsQueueUrl);
        env.put("FANIN_DEAD_LETTER_QUEUE_URL", deadLetterQueueUrl);
        env.put("FANIN_MAX_RECEIVE_COUNT", Integer.toString(maxReceiveCount));
        env.put("FANIN_DUE_SHARDS", Integer.toString(dueShards));
        env.put("AWS_REGION", region);
        for (String passed : new String[] {"AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"}) {
            String value = processEnvironment.get(passed);
            if (value != null && !value.isBlank()) {
                env.put(passed, value);
            }
        }
        return env;
    }
}
