package dev.fanin.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A mapping in the document, read field by field. Optional readers return the default when the field is absent
 * (or explicitly empty, as in {@code size:}) and null after reporting a problem when it is present but wrong.
 */
final class Section {

    private final ObjectNode node;
    private final Spot spot;

    private Section(ObjectNode node, Spot spot) {
        this.node = node;
        this.spot = spot;
    }

    /** The section at {@code spot}, or null after reporting that {@code node} is not a mapping. */
    static Section of(Spot spot, JsonNode node) {
        ObjectNode mapping = Values.mapping(spot, node);
        return mapping == null ? null : new Section(mapping, spot);
    }

    Spot spot() {
        return spot;
    }

    Spot at(String name) {
        return spot.child(name);
    }

    boolean has(String name) {
        return get(name) != null;
    }

    JsonNode get(String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? null : value;
    }

    List<String> names() {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    /** Reports every field not in {@code known}, with the closest known name when one is a plausible typo. */
    void allowOnly(Collection<String> known) {
        for (String name : names()) {
            if (!known.contains(name)) {
                at(name).problem(unknownField(name, known));
            }
        }
    }

    static String unknownField(String name, Collection<String> known) {
        return Suggestions.closest(name, known)
                .map(s -> "is not a known field; did you mean \"" + s + "\"?")
                .orElse("is not a known field; the fields here are: " + String.join(", ", known));
    }

    /** True when the field is present; otherwise reports {@code "is missing; " + hint}. */
    boolean require(String name, String hint) {
        if (has(name)) {
            return true;
        }
        at(name).problem("is missing; " + hint);
        return false;
    }

    String text(String name, String absent) {
        JsonNode value = get(name);
        return value == null ? absent : Values.text(at(name), value);
    }

    Duration duration(String name, Duration absent, Values.Sign sign) {
        JsonNode value = get(name);
        return value == null ? absent : Values.duration(at(name), value, sign);
    }

    Integer integer(String name, Integer absent, int min, int max) {
        JsonNode value = get(name);
        return value == null ? absent : Values.integer(at(name), value, min, max);
    }

    Boolean bool(String name, Boolean absent) {
        JsonNode value = get(name);
        return value == null ? absent : Values.bool(at(name), value);
    }

    <E extends Enum<E>> E choice(String name, Class<E> type, E absent) {
        JsonNode value = get(name);
        return value == null ? absent : Values.choice(at(name), value, type);
    }

    FieldPath path(String name, FieldPath absent) {
        JsonNode value = get(name);
        return value == null ? absent : Values.path(at(name), value);
    }

    Pattern regex(String name, boolean needsGroup) {
        JsonNode value = get(name);
        return value == null ? null : Values.regex(at(name), value, needsGroup);
    }

    /** The nested mapping, or null when absent or (after a report) not a mapping. */
    Section section(String name) {
        JsonNode value = get(name);
        return value == null ? null : of(at(name), value);
    }

    /** The list, or null when absent or (after a report) not a list. */
    ArrayNode list(String name, String example) {
        JsonNode value = get(name);
        return value == null ? null : Values.list(at(name), value, example);
    }
}
