package dev.fanin.core.trigger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.fanin.core.config.Condition;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.config.ValueRef;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.Scalars;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;

/**
 * Reads the values the triggers need from an event: sentinel predicates, counts and member numbers. Pure.
 *
 * <p>A scalar's string form is its text for strings and its JSON text for numbers and booleans; {@code null},
 * objects, arrays and absent fields have none.
 */
public final class EventValues {

    private EventValues() {
    }

    /** Whether {@code condition} holds on the event (its payload, or its envelope for {@code $envelope} paths). */
    public static boolean matches(Condition condition, Event event) {
        JsonNode node = read(condition.path(), event);
        if (condition.exists() != null) {
            boolean present = !node.isMissingNode() && !node.isNull();
            return present == condition.exists();
        }
        Optional<String> text = scalarText(node);
        if (text.isEmpty()) {
            return false;
        }
        if (condition.equalTo() != null) {
            return condition.equalTo().equals(text.get());
        }
        if (condition.oneOf() != null) {
            return condition.oneOf().contains(text.get());
        }
        if (condition.matches() != null) {
            return condition.matches().matcher(text.get()).matches();
        }
        return false;
    }

    /** The value's string form, cut by the extract regex's first group when there is one; empty when absent. */
    public static Optional<String> text(ValueRef ref, Event event) {
        Optional<String> text = scalarText(read(ref.path(), event));
        if (text.isEmpty() || ref.extract() == null) {
            return text;
        }
        Matcher matcher = ref.extract().matcher(text.get());
        if (!matcher.find() || matcher.groupCount() < 1 || matcher.group(1) == null) {
            return Optional.empty();
        }
        return Optional.of(matcher.group(1));
    }

    /** The value as an integer: an integral JSON number, or a string of decimal digits (after extraction). */
    public static OptionalLong integer(ValueRef ref, Event event) {
        JsonNode node = read(ref.path(), event);
        if (ref.extract() == null && node.isNumber()) {
            return node.canConvertToExactIntegral() && node.canConvertToLong() ? OptionalLong.of(node.longValue()) : OptionalLong.empty();
        }
        Optional<String> text = text(ref, event);
        if (text.isEmpty() || !text.get().strip().matches("-?\\d{1,18}")) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(text.get().strip()));
    }

    private static JsonNode read(FieldPath path, Event event) {
        return path.read(event.payload(), event.envelope() == null ? MissingNode.getInstance() : event.envelope());
    }

    private static Optional<String> scalarText(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull() || node.isContainerNode()) {
            return Optional.empty();
        }
        // As match rules and keys read it: a number written with an exponent (1e2) is its decimal text (100).
        return Optional.of(Scalars.text(node));
    }
}
