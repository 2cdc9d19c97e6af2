package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.event.Event;
import dev.fanin.core.text.ExactJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The set of a field's values, as strings (a string's text; the JSON text of numbers, booleans, objects and arrays),
 * keeping the {@code cap} smallest in string order of at most {@code maxValueBytes} of JSON each; {@code truncated}
 * once a distinct value was seen that is not listed (beyond the cap, or longer). Whether a value is listable depends
 * on the value alone, so the result does not depend on arrival order. Absent and null values are not collected.
 * Idempotent: re-adding a value changes nothing.
 */
record DistinctValuesAccumulator(FieldPath path, int cap, int maxValueBytes, List<String> values, boolean truncated) implements Accumulator {

    DistinctValuesAccumulator {
        values = List.copyOf(values);
    }

    static DistinctValuesAccumulator empty(FieldPath path, int cap, int maxValueBytes) {
        return new DistinctValuesAccumulator(path, cap, maxValueBytes, List.of(), false);
    }

    /** Decodes {@link #toState}, keeping what fits the current bounds (a configuration may have lowered them). */
    static DistinctValuesAccumulator fromState(FieldPath path, int cap, int maxValueBytes, JsonNode state) {
        List<String> values = new ArrayList<>();
        state.path("vs").forEach(v -> values.add(v.textValue()));
        return empty(path, cap, maxValueBytes).combine(values, state.path("tr").booleanValue());
    }

    @Override
    public Accumulator add(Event event) {
        JsonNode node = EventFields.read(path, event);
        if (node.isMissingNode() || node.isNull()) {
            return this;
        }
        // Compared as text, a number as its decimal digits, as match rules and keys compare it: 1e2 and 100 are one value.
        String value = node.isValueNode() ? ExactJson.scalarText(node) : node.toString();
        if (values.contains(value)) {
            return this;
        }
        return combine(List.of(value), false);
    }

    @Override
    public Accumulator merge(Accumulator other) {
        if (!(other instanceof DistinctValuesAccumulator that) || that.cap != cap || that.maxValueBytes != maxValueBytes || !Objects.equals(that.path, path)) {
            throw new IllegalArgumentException("cannot merge distinct values " + this + " with " + other);
        }
        return combine(that.values, that.truncated);
    }

    private DistinctValuesAccumulator combine(List<String> more, boolean moreTruncated) {
        List<String> all = SortedCapped.union(values, more);
        long distinct = all.stream().distinct().count();
        List<String> listable = all.stream().filter(v -> ExactJson.stringBytes(v) <= maxValueBytes).toList();
        List<String> kept = SortedCapped.smallest(listable, Comparator.naturalOrder(), cap);
        return new DistinctValuesAccumulator(path, cap, maxValueBytes, kept, truncated || moreTruncated || distinct > kept.size());
    }

    @Override
    public JsonNode toOutput() {
        ObjectNode output = JsonNodeFactory.instance.objectNode();
        ArrayNode list = output.putArray("values");
        values.forEach(list::add);
        output.put("truncated", truncated);
        return output;
    }

    @Override
    public JsonNode toState() {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        ArrayNode list = state.putArray("vs");
        values.forEach(list::add);
        state.put("tr", truncated);
        return state;
    }
}
