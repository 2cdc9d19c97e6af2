package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.fanin.core.event.Event;

/** The number of events added. Not idempotent: relies on the window's digest dedupe. */
record CountAccumulator(long count) implements Accumulator {

    static CountAccumulator fromState(JsonNode state) {
        return new CountAccumulator(state.path("n").longValue());
    }

    @Override
    public Accumulator add(Event event) {
        return new CountAccumulator(count + 1);
    }

    @Override
    public Accumulator merge(Accumulator other) {
        if (!(other instanceof CountAccumulator that)) {
            throw new IllegalArgumentException("cannot merge count with " + other);
        }
        return new CountAccumulator(count + that.count);
    }

    @Override
    public JsonNode toOutput() {
        return JsonNodeFactory.instance.numberNode(count);
    }

    @Override
    public JsonNode toState() {
        return JsonNodeFactory.instance.objectNode().put("n", count);
    }
}
