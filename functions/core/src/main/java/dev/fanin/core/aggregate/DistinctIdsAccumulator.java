package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.event.Event;
import dev.fanin.core.text.ExactJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Distinct event ids: an exact count, and the {@code cap} smallest ids (lexicographic order) of at most
 * {@code maxValueBytes} of JSON each; a longer id is counted, never listed (whether an id is listable depends on the
 * id alone, so the list does not depend on arrival order). Adding an id that is kept is a no-op, so a repeat is
 * harmless while the window lists every id; beyond the list the count relies on the window's digest dedupe.
 */
record DistinctIdsAccumulator(int cap, int maxValueBytes, long count, List<String> ids) implements Accumulator {

    DistinctIdsAccumulator {
        ids = List.copyOf(ids);
    }

    static DistinctIdsAccumulator empty(int cap, int maxValueBytes) {
        return new DistinctIdsAccumulator(cap, maxValueBytes, 0, List.of());
    }

    /** Decodes {@link #toState}, keeping what fits the current bounds (a configuration may have lowered them). */
    static DistinctIdsAccumulator fromState(int cap, int maxValueBytes, JsonNode state) {
        List<String> ids = new ArrayList<>();
        state.path("ids").forEach(id -> ids.add(id.textValue()));
        return new DistinctIdsAccumulator(cap, maxValueBytes, state.path("n").longValue(), listed(ids, cap, maxValueBytes));
    }

    @Override
    public Accumulator add(Event event) {
        if (ids.contains(event.eventId())) {
            return this;
        }
        return new DistinctIdsAccumulator(cap, maxValueBytes, count + 1, listed(SortedCapped.union(ids, List.of(event.eventId())), cap, maxValueBytes));
    }

    @Override
    public Accumulator merge(Accumulator other) {
        if (!(other instanceof DistinctIdsAccumulator that)) {
            throw new IllegalArgumentException("cannot merge distinct ids with " + other);
        }
        // Merged sessions never share an event, so the counts add up.
        return new DistinctIdsAccumulator(cap, maxValueBytes, count + that.count, listed(SortedCapped.union(ids, that.ids), cap, maxValueBytes));
    }

    private static List<String> listed(List<String> ids, int cap, int maxValueBytes) {
        List<String> listable = ids.stream().filter(id -> ExactJson.stringBytes(id) <= maxValueBytes).toList();
        return SortedCapped.smallest(listable, Comparator.naturalOrder(), cap);
    }

    @Override
    public JsonNode toOutput() {
        ObjectNode output = JsonNodeFactory.instance.objectNode();
        output.put("count", count);
        ArrayNode list = output.putArray("ids");
        ids.forEach(list::add);
        return output;
    }

    @Override
    public JsonNode toState() {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        state.put("n", count);
        ArrayNode list = state.putArray("ids");
        ids.forEach(list::add);
        return state;
    }
}
