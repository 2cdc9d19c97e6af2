package dev.fanin.aws.sqs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * The body of a timer message: exactly {@code {"pipeline":..,"key":..,"windowId":..,"dueAt":"<ISO-8601>"}}.
 * Written by {@link SqsWindowTimers}, read by the timer function.
 */
public record TimerMessage(WindowRef ref, Instant dueAt) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public TimerMessage {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(dueAt, "dueAt");
    }

    public String toJson() {
        ObjectNode body = JSON.createObjectNode()
                .put("pipeline", ref.pipeline())
                .put("key", ref.key())
                .put("windowId", ref.windowId())
                .put("dueAt", dueAt.toString());
        return body.toString();
    }

    /** @throws IllegalArgumentException naming what is wrong with the body */
    public static TimerMessage parse(String body) {
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("timer message is not JSON: " + e.getOriginalMessage(), e);
        }
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException("timer message must be a JSON object");
        }
        try {
            Instant dueAt = Instant.parse(text(json, "dueAt"));
            return new TimerMessage(new WindowRef(text(json, "pipeline"), text(json, "key"), text(json, "windowId")), dueAt);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("timer message dueAt is not an ISO-8601 instant: " + json.get("dueAt"), e);
        }
    }

    private static String text(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("timer message needs a string field '" + field + "'");
        }
        return value.asText();
    }
}
