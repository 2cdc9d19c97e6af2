package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.ValueRef;
import dev.fanin.core.event.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * Builds group keys. Each part is escaped ({@code \} as {@code \\}, {@code |} as {@code \|}) before the parts are
 * joined with {@link Event#KEY_SEPARATOR}, so an unescaped {@code |} in a key always separates parts and two
 * different part lists never give the same key (["a|b","c"] is {@code a\|b|c}, ["a","b|c"] is {@code a|b\|c}).
 */
final class GroupKeys {

    private GroupKeys() {
    }

    /**
     * The key of one payload.
     *
     * @throws IntakeFailure MISSING_KEY, KEY_NOT_SCALAR, KEY_CONTROL_CHARACTERS or KEY_TOO_LONG
     */
    static String build(List<ValueRef> parts, JsonNode payload, JsonNode envelope, int maxKeyLength) {
        List<String> values = new ArrayList<>(parts.size());
        for (ValueRef part : parts) {
            values.add(partValue(part, payload, envelope));
        }
        String key = join(values);
        int bytes = Scalars.utf8Length(key);
        if (bytes > maxKeyLength) {
            throw new IntakeFailure(RejectionReason.KEY_TOO_LONG, "the key from " + parts + " is " + bytes
                    + " UTF-8 bytes, over maxKeyLength " + maxKeyLength + ": " + Details.quote(key));
        }
        return key;
    }

    /** Escapes each part and joins them; injective over lists of strings. */
    static String join(List<String> parts) {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) {
                key.append(Event.KEY_SEPARATOR);
            }
            key.append(escape(parts.get(i)));
        }
        return key.toString();
    }

    static String escape(String part) {
        return part.replace("\\", "\\\\").replace(Event.KEY_SEPARATOR, "\\" + Event.KEY_SEPARATOR);
    }

    private static String partValue(ValueRef part, JsonNode payload, JsonNode envelope) {
        JsonNode node = part.path().read(payload, envelope);
        if (Scalars.isAbsent(node)) {
            throw new IntakeFailure(RejectionReason.MISSING_KEY, "key part " + part.path() + " is "
                    + (node.isNull() ? "null" : "absent"));
        }
        if (!Scalars.isScalar(node)) {
            throw new IntakeFailure(RejectionReason.KEY_NOT_SCALAR, "key part " + part.path() + " is " + Details.kind(node)
                    + " " + Details.value(node) + "; a key part must be a string, number or boolean (point the path at one field)");
        }
        String text = Scalars.text(node);
        if (part.extract() != null) {
            Matcher matcher = part.extract().matcher(text);
            String extracted = matcher.find() ? (matcher.groupCount() >= 1 ? matcher.group(1) : matcher.group()) : null;
            if (extracted == null) {
                throw new IntakeFailure(RejectionReason.MISSING_KEY, "key part " + part + " does not match "
                        + Details.quote(text));
            }
            text = extracted;
        }
        int control = Scalars.firstControlCharacter(text);
        if (control >= 0) {
            throw new IntakeFailure(RejectionReason.KEY_CONTROL_CHARACTERS, "key part " + part + " has "
                    + Scalars.describeCharacterAt(text, control) + ": " + Details.quote(text));
        }
        return text;
    }
}
