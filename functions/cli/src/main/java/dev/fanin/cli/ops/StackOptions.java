package dev.fanin.cli.ops;

import dev.fanin.cli.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * Which deployed stack a command operates: {@code --stack NAME} reads its resources from the CloudFormation outputs
 * (and {@code DueShards}, {@code MaxReceiveCount}, {@code PipelineConfigLocation} from its parameters), or the resources
 * the command uses are named one by one. A flag
 * given beside {@code --stack} overrides the output. Credentials and region come the AWS SDK's usual way
 * ({@code AWS_PROFILE}, {@code AWS_REGION}, ...); {@code AWS_ENDPOINT_URL} points every client at a local endpoint.
 */
public final class StackOptions {

    /** A resource of the stack a command may use: the flag that names it and the stack output that does. */
    public enum Resource {
        TABLE("--table", "WindowTableName"),
        DEAD_LETTER_QUEUE("--dead-letter-queue-url", "InputDeadLetterQueueUrl"),
        INPUT_QUEUE("--input-queue-url", "InputQueueUrl"),
        TIMER_QUEUE("--timer-queue-url", "TimerQueueUrl"),
        LATE_EVENTS_QUEUE("--late-events-queue-url", "LateEventsQueueUrl"),
        BUS("--bus", "OutputBusName");

        private final String flag;
        private final String output;

        Resource(String flag, String output) {
            this.flag = flag;
            this.output = output;
        }
    }

    @Option(names = "--stack", paramLabel = "NAME", description = "the CloudFormation stack fanin was deployed as (its outputs name the resources)")
    String stack;
    @Option(names = "--table", paramLabel = "NAME", description = "the window table (output WindowTableName)")
    String table;
    @Option(names = "--input-queue-url", paramLabel = "URL", description = "the input queue (output InputQueueUrl)")
    String inputQueueUrl;
    @Option(names = "--dead-letter-queue-url", paramLabel = "URL", description = "the input dead-letter queue (output InputDeadLetterQueueUrl)")
    String deadLetterQueueUrl;
    @Option(names = "--timer-queue-url", paramLabel = "URL", description = "the timer queue (output TimerQueueUrl)")
    String timerQueueUrl;
    @Option(names = "--late-events-queue-url", paramLabel = "URL", description = "the side output (output LateEventsQueueUrl)")
    String lateEventsQueueUrl;
    @Option(names = "--bus", paramLabel = "NAME", description = "the output bus (output OutputBusName)")
    String bus;
    @Option(names = "--emit-queue-url", paramLabel = "URL", description = "the SQS emit target, for pipelines that emit to SQS (parameter EmitQueueUrl)")
    String emitQueueUrl;
    @Option(names = "--config", paramLabel = "FILE",
            description = "the pipelines YAML the stack runs (default: the stack's PipelineConfigLocation with --stack, else the bundled one)")
    Path config;
    @Option(names = "--due-shards", paramLabel = "N", description = "due-bucket shards (parameter DueShards; default 16)")
    Integer dueShards;

    /** The stack named with {@code --stack}, whose outputs and parameters {@link #resolve} needs. */
    public Optional<String> stackName() {
        return Optional.ofNullable(stack);
    }

    /**
     * The resources, from the flags and {@code found}, the outputs and parameters of the {@link #stackName()} stack
     * (empty without one). Only those the command {@code uses} must be named: one it does not use is null unless given.
     *
     * @throws UsageException naming what is missing and how to give it
     */
    public OperatedStack resolve(Map<String, String> found, Set<Resource> uses) throws UsageException {
        if (config != null && !Files.isRegularFile(config)) {
            throw new UsageException("--config " + config + ": no such file");
        }
        Map<String, String> missing = new LinkedHashMap<>();
        String tableName = pick(table, found, Resource.TABLE, uses, missing);
        String dlq = pick(deadLetterQueueUrl, found, Resource.DEAD_LETTER_QUEUE, uses, missing);
        String input = pick(inputQueueUrl, found, Resource.INPUT_QUEUE, uses, missing);
        String timers = pick(timerQueueUrl, found, Resource.TIMER_QUEUE, uses, missing);
        String late = pick(lateEventsQueueUrl, found, Resource.LATE_EVENTS_QUEUE, uses, missing);
        String busName = pick(bus, found, Resource.BUS, uses, missing);
        if (!missing.isEmpty()) {
            throw new UsageException("name the stack with --stack NAME, or give " + String.join(", ", missing.keySet())
                    + (stack == null ? "" : " (stack " + stack + " has no output " + String.join(", ", missing.values()) + ")"));
        }
        int shards = dueShards != null ? dueShards : Integer.parseInt(found.getOrDefault("DueShards", "16"));
        int maxReceiveCount = Integer.parseInt(found.getOrDefault("MaxReceiveCount", "5"));
        String emitQueue = emitQueueUrl != null ? emitQueueUrl : found.getOrDefault("EmitQueueUrl", "");
        String configLocation = config != null ? "file:" + config.toAbsolutePath()
                : found.getOrDefault("PipelineConfigLocation", "classpath:fanin/pipelines.yaml");
        return new OperatedStack(Optional.ofNullable(stack), tableName, input, dlq, timers, late, busName, emitQueue,
                configLocation, shards, maxReceiveCount);
    }

    /** The flag, else the output; a used resource named by neither goes into {@code missing}. */
    private static String pick(String flag, Map<String, String> found, Resource resource, Set<Resource> uses, Map<String, String> missing) {
        String value = flag != null ? flag : found.get(resource.output);
        if ((value == null || value.isBlank()) && uses.contains(resource)) {
            missing.put(resource.flag, resource.output);
        }
        return value;
    }
}
