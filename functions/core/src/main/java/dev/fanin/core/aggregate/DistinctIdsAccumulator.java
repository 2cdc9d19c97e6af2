package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.event.Event;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Distinct event ids: an exact count, and the {@code cap} smallest ids (lexicographic order). Adding an id that is
 * kept is a no-op, so a repeat is harmless while the window holds at most {@code cap} ids; beyond the cap the count
 * relies on the window's digest dedupe.
 */
record DistinctIdsAccumulator(int cap, long count, List<String> ids) implements Accumulator {

    DistinctIdsAccumulator {
        ids = List.copyOf(ids);
    }

    static DistinctIdsAccumulator empty(int cap) {
        return new DistinctIdsAccumulator(cap, 0, List.of());
    }

    static DistinctIdsAccumulator fromState(int cap, JsonNode state) {
        List<String> ids = new ArrayList<>();
        state.path("ids").forEach(id -> ids.add(id.textValue()));
        return new DistinctIdsAccumulator(cap, state.path("n").longValue(), ids);
    }

    @Override
    public Accumulator add(Event event) {
        if (ids.contains(event.eventId())) {
            return this;
        }
        List<String> all = SortedCapped.union(ids, List.of(event.eventId()));
        return new DistinctIdsAccumulator(cap, count + 1, SortedCapped.smallest(all, Comparator.naturalOrder(), cap));
    }

    @Override
    public Accumulator merge(Accumulator other) {
        if (!(other instanceof DistinctIdsAccumulator that)) {
            throw new IllegalArgumentException("cannot merge distinct ids with " + other);
        }
        // Merged sessions never share an event, so the counts add up.
        List<String> all = SortedCapped.union(ids, that.ids);
        return new DistinctIdsAccumulator(cap, count + that.count, SortedCapped.smallest(all, Comparator.naturalOrder(), cap));
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
