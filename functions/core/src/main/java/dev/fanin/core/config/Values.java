package dev.fanin.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.text.ExactJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads one YAML value of a known type. Each reader returns the value, or null after reporting at the given spot
 * what is wrong with it; none throws.
 */
final class Values {

    /** Which durations a field accepts. */
    enum Sign { POSITIVE, NOT_NEGATIVE }

    private Values() {
    }

    static ObjectNode mapping(Spot spot, JsonNode node) {
        if (node.isObject()) {
            return (ObjectNode) node;
        }
        spot.problem("must be a mapping (field: value), not " + kind(node));
        return null;
    }

    static ArrayNode list(Spot spot, JsonNode node, String example) {
        if (node.isArray()) {
            return (ArrayNode) node;
        }
        spot.problem("must be a list, e.g. " + example + ", not " + kind(node));
        return null;
    }

    static String text(Spot spot, JsonNode node) {
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isNumber() || node.isBoolean()) {
            spot.problem("must be text, not " + kind(node) + "; quote it: \"" + node.asText() + "\"");
        } else {
            spot.problem("must be text, not " + kind(node));
        }
        return null;
    }

    /** A scalar compared with event fields: text, number or boolean, as an event's value of it is compared. */
    static String scalar(Spot spot, JsonNode node) {
        if (node.isBigDecimal() && !ExactJson.inRange(node.decimalValue())) {
            // Intake refuses such a number in an event, so it could never match; and its digits could take gigabytes.
            spot.problem("is " + node.decimalValue() + ", outside what fanin holds (0, or a magnitude from 1e-300 to 1e300), "
                    + "so no event could carry it; give another value, or quote it to compare text");
            return null;
        }
        if (node.isValueNode() && !node.isNull()) {
            return ExactJson.scalarText(node);
        }
        spot.problem("must be a single value (text, a number or true/false), not " + kind(node));
        return null;
    }

    static Duration duration(Spot spot, JsonNode node, Sign sign) {
        Duration parsed;
        if (node.isTextual()) {
            try {
                parsed = Durations.parse(node.textValue());
            } catch (IllegalArgumentException e) {
                spot.problem(e.getMessage());
                return null;
            }
        } else if (node.isNumber()) {
            spot.problem(node.asText() + " has no unit; use e.g. \"" + node.asText() + "s\" or \"" + node.asText() + "m\"");
            return null;
        } else {
            spot.problem("must be a duration such as \"30s\", not " + kind(node));
            return null;
        }
        if (sign == Sign.POSITIVE && (parsed.isZero() || parsed.isNegative())) {
            spot.problem("\"" + node.textValue() + "\" must be longer than zero");
            return null;
        }
        if (sign == Sign.NOT_NEGATIVE && parsed.isNegative()) {
            spot.problem("\"" + node.textValue() + "\" must not be negative");
            return null;
        }
        return parsed;
    }

    static Integer integer(Spot spot, JsonNode node, int min, int max) {
        if (!node.isIntegralNumber()) {
            String shown = node.isTextual() ? "\"" + node.textValue() + "\"" : node.isValueNode() ? node.asText() : kind(node);
            spot.problem("must be a whole number, not " + shown);
            return null;
        }
        if (!node.canConvertToInt() || node.intValue() < min || node.intValue() > max) {
            String range = max == Integer.MAX_VALUE ? "at least " + min : "between " + min + " and " + max;
            spot.problem("is " + node.asText() + "; it must be " + range);
            return null;
        }
        return node.intValue();
    }

    static Boolean bool(Spot spot, JsonNode node) {
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        String shown = node.isTextual() ? "\"" + node.textValue() + "\"" : node.isValueNode() ? node.asText() : kind(node);
        spot.problem("must be true or false, not " + shown);
        return null;
    }

    /** One of an enum's constants, written in the configuration as its lower-case, dashed name. */
    static <E extends Enum<E>> E choice(Spot spot, JsonNode node, Class<E> type) {
        String value = text(spot, node);
        if (value == null) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            if (yamlName(constant).equals(value)) {
                return constant;
            }
            names.add(yamlName(constant));
        }
        spot.problem(oneOfMessage(value, names));
        return null;
    }

    static String oneOfMessage(String value, List<String> names) {
        String message = "\"" + value + "\" is not one of " + String.join(", ", names);
        return Suggestions.closest(value, names).map(s -> message + "; did you mean \"" + s + "\"?").orElse(message);
    }

    /** The configuration's spelling of an enum constant: {@code FIRE_PARTIAL} is {@code fire-partial}. */
    static String yamlName(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static FieldPath path(Spot spot, JsonNode node) {
        String text = text(spot, node);
        if (text == null) {
            return null;
        }
        try {
            return FieldPath.parse(text);
        } catch (IllegalArgumentException e) {
            spot.problem(e.getMessage());
            return null;
        }
    }

    /**
     * A regular expression; with {@code needsGroup}, it must have a capture group, whose first match is the value
     * an {@code extract} produces.
     */
    static Pattern regex(Spot spot, JsonNode node, boolean needsGroup) {
        String text = text(spot, node);
        if (text == null) {
            return null;
        }
        Pattern pattern;
        try {
            pattern = Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            String at = e.getIndex() >= 0 ? " at index " + e.getIndex() : "";
            spot.problem("\"" + text + "\" is not a valid regular expression: " + e.getDescription() + at);
            return null;
        }
        if (needsGroup && pattern.matcher("").groupCount() == 0) {
            spot.problem("\"" + text + "\" has no capture group; put the part to keep in ( ), e.g. \"^(.*)/[^/]+$\"");
            return null;
        }
        return pattern;
    }

    static String kind(JsonNode node) {
        if (node.isObject()) {
            return "a mapping";
        }
        if (node.isArray()) {
            return "a list";
        }
        if (node.isTextual()) {
            return "text";
        }
        if (node.isBoolean()) {
            return "true/false";
        }
        if (node.isNumber()) {
            return "a number";
        }
        return "empty";
    }
}
