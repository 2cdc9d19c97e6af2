package dev.fanin.core.config;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads {@code emit}: exactly one of {@code eventbridge} and {@code sqs}. Values may be {@code ${ENV_VAR}}
 * references; they are kept verbatim for the adapters to resolve, and only their syntax is checked here.
 */
final class EmitParser {

    private static final List<String> FIELDS = List.of("eventbridge", "sqs");
    private static final List<String> EVENTBRIDGE_FIELDS = List.of("bus", "source", "detailType");
    private static final List<String> SQS_FIELDS = List.of("queueUrl", "fifo");

    private EmitParser() {
    }

    /** The target, or null after reporting its problems. */
    static EmitTarget parse(Section pipeline) {
        if (!pipeline.has("emit")) {
            return ConfigDefaults.EMIT;
        }
        Section emit = pipeline.section("emit");
        if (emit == null) {
            return null;
        }
        int before = emit.spot().problems().count();
        emit.allowOnly(FIELDS);
        boolean eventBridge = emit.names().contains("eventbridge");
        boolean sqs = emit.names().contains("sqs");
        if (eventBridge && sqs) {
            emit.spot().problem("has both eventbridge and sqs; choose one target");
            return null;
        }
        if (!eventBridge && !sqs) {
            emit.spot().problem("needs a target: eventbridge (e.g. {bus: \"${FANIN_EMIT_BUS_NAME}\"}) or sqs (e.g. {queueUrl: \"${FANIN_EMIT_QUEUE_URL}\"})");
            return null;
        }
        EmitTarget target = eventBridge ? eventBridge(emit) : sqs(emit);
        return emit.spot().problems().count() == before ? target : null;
    }

    private static EmitTarget eventBridge(Section emit) {
        if (!emit.has("eventbridge")) {
            return ConfigDefaults.EMIT;
        }
        Section section = emit.section("eventbridge");
        if (section == null) {
            return null;
        }
        section.allowOnly(EVENTBRIDGE_FIELDS);
        EmitTarget.EventBridge defaults = (EmitTarget.EventBridge) ConfigDefaults.EMIT;
        String bus = name(section, "bus", defaults.busName());
        String source = accepted(section, "source", name(section, "source", defaults.source()), EventBridgeNames::sourceProblem);
        String detailType = accepted(section, "detailType", name(section, "detailType", defaults.detailType()),
                EventBridgeNames::detailTypeProblem);
        return new EmitTarget.EventBridge(bus, source, detailType);
    }

    /**
     * {@code value} if EventBridge takes it ({@link EventBridgeNames}); a {@code ${...}} reference is checked as written
     * here (a literal {@code aws.} prefix, its length) and again once resolved, at the functions' start-up.
     */
    private static String accepted(Section section, String field, String value, Function<String, Optional<String>> problem) {
        Optional<String> wrong = value == null ? Optional.empty() : problem.apply(value);
        wrong.ifPresent(p -> section.at(field).problem(p));
        return wrong.isPresent() ? null : value;
    }

    private static EmitTarget sqs(Section emit) {
        Section section = emit.has("sqs") ? emit.section("sqs") : null;
        if (section == null) {
            if (!emit.has("sqs")) {
                emit.at("sqs").child("queueUrl").problem("is missing; give the queue URL, e.g. \"${FANIN_EMIT_QUEUE_URL}\"");
            }
            return null;
        }
        section.allowOnly(SQS_FIELDS);
        if (!section.require("queueUrl", "give the queue URL, e.g. \"${FANIN_EMIT_QUEUE_URL}\"")) {
            return null;
        }
        String queueUrl = name(section, "queueUrl", null);
        if (queueUrl == null) {
            return null;
        }
        boolean urlIsFifo = queueUrl.endsWith(".fifo");
        Boolean fifo = section.bool("fifo", urlIsFifo);
        if (fifo == null) {
            return null;
        }
        if (!isReference(queueUrl) && fifo != urlIsFifo) {
            section.at("queueUrl").problem(fifo
                    ? "\"" + queueUrl + "\" does not end in \".fifo\", but fifo is true; FIFO queue URLs end in \".fifo\""
                    : "\"" + queueUrl + "\" ends in \".fifo\", but fifo is false; set fifo: true so that messages carry a group id");
            return null;
        }
        return new EmitTarget.Sqs(queueUrl, fifo);
    }

    /** A name or URL: not blank, and any {@code ${...}} reference closed and named. */
    private static String name(Section section, String field, String absent) {
        String value = section.text(field, absent);
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            section.at(field).problem("is empty; leave it out for the default or give a value");
            return null;
        }
        int open = value.indexOf("${");
        while (open >= 0) {
            int close = value.indexOf('}', open);
            if (close < 0 || !value.substring(open + 2, close).matches("[A-Za-z_][A-Za-z0-9_]*")) {
                section.at(field).problem("\"" + value + "\" has a malformed environment reference; write it as \"${NAME}\" with letters, digits and '_'");
                return null;
            }
            open = value.indexOf("${", close);
        }
        return value;
    }

    private static boolean isReference(String value) {
        return value.contains("${");
    }
}
