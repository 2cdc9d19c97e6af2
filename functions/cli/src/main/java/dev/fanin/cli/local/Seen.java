package dev.fanin.cli.local;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/** What the local run observed, read back from the queues and the table (never from the functions' memory). */
final class Seen {

    private Seen() {
    }

    /** An aggregate event read from the bus tap: the EventBridge detail. */
    record Aggregate(String aggregateId, String pipeline, String key, int revision, String closeReason, boolean complete,
                     String expected, long seen, String missing, String corrects, JsonNode aggregations) {

        static Aggregate from(JsonNode detail) {
            JsonNode missing = detail.path("missing");
            return new Aggregate(detail.path("aggregateId").asText(), detail.path("pipeline").asText(),
                    detail.path("key").asText(), detail.path("revision").asInt(), detail.path("closeReason").asText(),
                    detail.path("complete").asBoolean(), detail.path("expected").isNumber() ? detail.path("expected").asText() : null,
                    detail.path("seen").asLong(), missing.isArray() && !missing.isEmpty() ? missing.toString() : null,
                    detail.path("corrects").isTextual() ? detail.path("corrects").asText() : null, detail.path("aggregations"));
        }
    }

    /** A record of the side output (late-events queue): a too-late event, or a dead-lettered window. */
    record SideRecord(String kind, String reason, String pipeline, String key, String eventId) { }

    /** A message of the input dead-letter queue, with fanin's reason, or none when SQS's redrive moved it. */
    record DeadLetter(String reason, String body) { }

    /** A window head in the table. */
    record Window(String pipeline, String key, String windowId, String status, Instant due, long events,
                  Instant openedAt, Instant hardDeadline, String expected) {

        String id() {
            return pipeline + " " + key + " " + windowId;
        }

        /** Not closed yet: open, held incomplete, or claimed and being flushed. */
        boolean isOpen() {
            return status.equals("OPEN") || status.equals("HELD") || status.equals("CLAIMED");
        }
    }
}
