package dev.fanin.cli.config;

import dev.fanin.aws.eventbridge.EventBridgeEmitter;
import dev.fanin.aws.sqs.SqsEmitter;
import dev.fanin.core.config.FaninConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The variables a stack's functions resolve emit targets' {@code ${...}} references against: template.yaml gives them
 * {@code FANIN_EMIT_BUS_NAME} (the stack's bus), {@code FANIN_EMIT_QUEUE_URL} (its {@code EmitQueueUrl} parameter,
 * empty for none) and its own settings, and Lambda adds its reserved variables ({@code AWS_REGION}...): a document
 * naming any other variable, or the queue URL left empty, passes the loader and is then refused by every function
 * (config publish used to write it). With {@code --location} the stack is not known: the emit variables are taken as
 * set.
 */
final class FunctionEnvironment {

    static final String BUS = "FANIN_EMIT_BUS_NAME";
    static final String QUEUE = "FANIN_EMIT_QUEUE_URL";
    /** Set on every function by template.yaml (Globals.Function.Environment) or by Lambda: taken as set, whatever their value. */
    private static final Set<String> ALWAYS_SET = Set.of("FANIN_TABLE_NAME", "FANIN_CONFIG", "FANIN_TIMER_QUEUE_URL",
            "FANIN_SIDE_OUTPUT_QUEUE_URL", "FANIN_DEAD_LETTER_QUEUE_URL", "FANIN_MAX_RECEIVE_COUNT", "FANIN_DUE_SHARDS",
            "FANIN_INGEST_TIMEOUT_SECONDS", "FANIN_SWEEP_PARALLELISM", "POWERTOOLS_SERVICE_NAME", "POWERTOOLS_METRICS_NAMESPACE",
            "POWERTOOLS_LOG_LEVEL", "JAVA_TOOL_OPTIONS", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_EXECUTION_ENV",
            "AWS_LAMBDA_FUNCTION_NAME", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "AWS_LAMBDA_FUNCTION_VERSION",
            "AWS_LAMBDA_INITIALIZATION_TYPE", "AWS_LAMBDA_LOG_GROUP_NAME", "AWS_LAMBDA_LOG_STREAM_NAME", "AWS_LAMBDA_RUNTIME_API",
            "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "LAMBDA_TASK_ROOT", "LAMBDA_RUNTIME_DIR", "_HANDLER",
            "TZ");

    /** The emit queue taken as set: standard, or a FIFO one where the document says so ({@link #problem}). */
    private static final String ASSUMED_QUEUE = "https://sqs.us-east-1.amazonaws.com/123456789012/fanin-emit";

    private final Map<String, String> values;
    private final String whose;

    private FunctionEnvironment(Map<String, String> values, String whose) {
        this.values = values;
        this.whose = whose;
    }

    /** The functions of {@code stack}, from its outputs and parameters, with what the operator added to them. */
    static FunctionEnvironment ofStack(String stack, Map<String, String> found, Map<String, String> added) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(BUS, found.get("OutputBusName"));
        values.put(QUEUE, found.get("EmitQueueUrl"));
        values.putAll(added);
        return new FunctionEnvironment(values, "stack " + stack + "'s functions");
    }

    /**
     * Functions of a stack not named: the template's variables taken as set, the emit queue as a standard or a FIFO
     * queue, whichever the document needs (its {@code fifo} says which the stack's must be).
     */
    static FunctionEnvironment assumed(Map<String, String> added) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(BUS, "fanin-bus");
        values.put(QUEUE, ASSUMED_QUEUE);
        values.putAll(added);
        return new FunctionEnvironment(values, "the functions");
    }

    /** Why {@code config} cannot run on these functions (an emit target they cannot build), empty when it can. */
    Optional<String> problem(FaninConfig config) {
        try {
            EventBridgeEmitter.checkTargets(config, this::value);
            resolveQueues(config);
            return Optional.empty();
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage() + ". " + whose + " get " + BUS + " (the stack's bus) and " + QUEUE
                    + " (its EmitQueueUrl parameter" + (isSet(QUEUE) ? "" : ", empty here") + ") from template.yaml, beside"
                    + " its settings and Lambda's own variables: write the value into the configuration, or set EmitQueueUrl;"
                    + " for a variable you gave the functions yourself, add --function-env NAME=VALUE");
        }
    }

    /** The SQS targets resolved; the assumed queue (not known) is tried as standard, then as FIFO. */
    private void resolveQueues(FaninConfig config) {
        try {
            SqsEmitter.resolveTargets(config, this::value);
        } catch (IllegalStateException standard) {
            if (!ASSUMED_QUEUE.equals(values.get(QUEUE))) {
                throw standard;
            }
            try {
                SqsEmitter.resolveTargets(config, name -> QUEUE.equals(name) ? ASSUMED_QUEUE + ".fifo" : value(name));
            } catch (IllegalStateException fifo) {
                throw standard;
            }
        }
    }

    private String value(String name) {
        if (values.containsKey(name)) {
            return values.get(name);
        }
        return ALWAYS_SET.contains(name) ? "set-on-the-function" : null;
    }

    private boolean isSet(String name) {
        String value = values.get(name);
        return value != null && !value.isEmpty();
    }
}
