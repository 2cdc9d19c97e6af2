package dev.fanin.core.trigger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.fanin.core.event.Event;
import java.time.Instant;

/** Builds {@link Event}s for engine tests from an id, an event time and a JSON payload. */
public final class EventFixture {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EventFixture() {
    }

    public static Event event(String id, long eventTimeMillis, String payloadJson) {
        return new Event("test-pipe", "key-1", id, Instant.ofEpochMilli(eventTimeMillis), false,
                Instant.ofEpochMilli(eventTimeMillis + 1_000), json(payloadJson), MissingNode.getInstance(), "msg-" + id);
    }

    public static Event event(String id, long eventTimeMillis) {
        return event(id, eventTimeMillis, "{}");
    }

    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
