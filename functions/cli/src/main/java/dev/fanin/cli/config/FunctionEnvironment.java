package dev.fanin.cli.config;

import dev.fanin.aws.eventbridge.EventBridgeEmitter;
import dev.fanin.aws.sqs.SqsEmitter;
import dev.fanin.core.config.FaninConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The variables a stack's functions resolve emit targets' {@code ${...}} references against: template.yaml gives them
 * {@code FANIN_EMIT_BUS_NAME} (the stack's bus) and {@code FANIN_EMIT_QUEUE_URL} (its {@code EmitQueueUrl} parameter,
 * empty for none) and nothing else, so a document naming another variable, or that one left empty, passes the loader
 * and is then refused by every function (config publish used to write it). With {@code --location} the stack is not
 * known: the template's two are taken as set.
 */
final class FunctionEnvironment {

    static final String BUS = "FANIN_EMIT_BUS_NAME";
    static final String QUEUE = "FANIN_EMIT_QUEUE_URL";

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

    /** Functions of a stack not named: the template's variables taken as set. */
    static FunctionEnvironment assumed(Map<String, String> added) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(BUS, "fanin-bus");
        values.put(QUEUE, "https://sqs.us-east-1.amazonaws.com/123456789012/fanin-emit");
        values.putAll(added);
        return new FunctionEnvironment(values, "the functions");
    }

    /** Why {@code config} cannot run on these functions (an emit target they cannot build), empty when it can. */
    Optional<String> problem(FaninConfig config) {
        try {
            EventBridgeEmitter.checkTargets(config, values::get);
            SqsEmitter.resolveTargets(config, values::get);
            return Optional.empty();
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage() + ". " + whose + " get " + BUS + " (the stack's bus) and " + QUEUE
                    + " (its EmitQueueUrl parameter" + (isSet(QUEUE) ? "" : ", empty here") + ") from template.yaml and no other"
                    + " variable: write the value into the configuration, or set EmitQueueUrl; for a variable you gave the"
                    + " functions yourself, add --function-env NAME=VALUE");
        }
    }

    private boolean isSet(String name) {
        String value = values.get(name);
        return value != null && !value.isEmpty();
    }
}
