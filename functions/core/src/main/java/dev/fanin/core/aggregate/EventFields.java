package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.event.Event;

/** Reads an aggregation's field from an event's payload (or envelope, for {@code $envelope} paths). */
final class EventFields {

    private EventFields() {
    }

    static JsonNode read(FieldPath path, Event event) {
        return path.read(event.payload(), event.envelope() == null ? MissingNode.getInstance() : event.envelope());
    }
}
