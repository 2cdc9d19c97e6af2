package dev.fanin.cli.explain;

import dev.fanin.core.config.Condition;
import dev.fanin.core.config.Envelope;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.config.ValueRef;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Configuration values as Markdown phrases. */
final class Describe {

    private Describe() {
    }

    static String code(Object value) {
        return "`" + value + "`";
    }

    static String path(FieldPath path) {
        return code(path.expression());
    }

    static String value(ValueRef ref) {
        return ref.extract() == null ? path(ref.path())
                : "the first capture group of " + code(ref.extract().pattern()) + " in " + path(ref.path());
    }

    static String values(List<ValueRef> refs) {
        return refs.stream().map(Describe::value).collect(Collectors.joining(" + "));
    }

    static String condition(Condition condition) {
        String subject = path(condition.path());
        if (condition.equalTo() != null) {
            return subject + " equals " + code(condition.equalTo());
        }
        if (condition.oneOf() != null) {
            return subject + " is one of " + condition.oneOf().stream().map(Describe::code).collect(Collectors.joining(", "));
        }
        if (condition.matches() != null) {
            return subject + " matches " + code(condition.matches().pattern());
        }
        return Boolean.TRUE.equals(condition.exists()) ? subject + " is present" : subject + " is absent or null";
    }

    static String conditions(List<Condition> all) {
        return all.stream().map(Describe::condition).collect(Collectors.joining(" and "));
    }

    /** An enum constant as the YAML writes it: {@code FIRE_PARTIAL} is {@code fire-partial}. */
    static String yaml(Enum<?> constant) {
        return code(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    static String envelope(Envelope envelope) {
        return switch (envelope) {
            case RAW -> "a raw JSON body (the payload `$` is the message body)";
            case EVENTBRIDGE -> "an EventBridge envelope (the payload `$` is the event's `detail`, `$envelope` the event)";
            case SNS -> "an SNS envelope (the payload `$` is the JSON in `Message`, `$envelope` the notification)";
            case S3 -> "an S3 event notification (each record is one event and its payload `$`)";
        };
    }
}
