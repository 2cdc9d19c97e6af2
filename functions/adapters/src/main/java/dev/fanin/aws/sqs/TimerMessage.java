package dev.fanin.aws.sqs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * The body of a timer message: exactly
 * {@code {"pipeline":..,"key":..,"windowId":..,"dueAt":"<ISO-8601>","chain":<integer>}}, the wake-up of
 * {@link WindowTimers.Wakeup}. Written by {@link SqsWindowTimers}, read by the timer function. A body without
 * {@code chain} was armed by a version before timer chains had ids: it reads as chain 0.
 */
public record TimerMessage(WindowTimers.Wakeup wakeup) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public TimerMessage {
        Objects.requireNonNull(wakeup, "wakeup");
    }

    public String toJson() {
        ObjectNode body = JSON.createObjectNode()
                .put("pipeline", wakeup.ref().pipeline())
                .put("key", wakeup.ref().key())
                .put("windowId", wakeup.ref().windowId())
                .put("dueAt", wakeup.dueAt().toString())
                .put("chain", wakeup.chain());
        return ExactJson.write(body);
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
        WindowRef ref = new WindowRef(text(json, "pipeline"), text(json, "key"), text(json, "windowId"));
        Instant dueAt = instant(json, "dueAt");
        long chain = 0;
        if (json.has("chain")) {
            JsonNode value = json.get("chain");
            if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
                throw new IllegalArgumentException("timer message chain must be a non-negative integer: " + value);
            }
            chain = value.longValue();
        }
        return new TimerMessage(new WindowTimers.Wakeup(ref, dueAt, chain));
    }

    private static Instant instant(JsonNode json, String field) {
        try {
            return Instant.parse(text(json, field));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("timer message " + field + " is not an ISO-8601 instant: " + json.get(field), e);
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
