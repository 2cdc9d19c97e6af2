package dev.fanin.cli.replay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Reads a trace: JSON Lines, one SQS message per line,
 * {@code {"at": ISO-8601, "body": JSON value or string, "messageId": optional, "attributes": optional}}. Blank lines
 * and lines starting with {@code #} are skipped. Every problem is collected with its line number, so one run names
 * them all. Messages are returned in arrival order (stable for equal times: file order).
 */
final class TraceReader {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of("at", "body", "messageId", "attributes");

    private TraceReader() {
    }

    /** @throws IllegalArgumentException listing every malformed line */
    static List<TraceMessage> read(Path trace) {
        List<String> lines;
        try {
            lines = Files.readAllLines(trace, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the trace " + trace, e);
        }
        return parse(lines, trace.toString());
    }

    static List<TraceMessage> parse(List<String> lines, String origin) {
        List<TraceMessage> messages = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            try {
                messages.add(message(i + 1, text));
            } catch (IllegalArgumentException e) {
                problems.add(origin + ":" + (i + 1) + ": " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        messages.sort(Comparator.comparing(TraceMessage::at));
        return List.copyOf(messages);
    }

    private static TraceMessage message(int line, String text) {
        JsonNode json;
        try {
            json = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException("a trace line must be a JSON object {\"at\": ..., \"body\": ...}");
        }
        for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field \"" + name + "\"; the fields are at, body, messageId, attributes");
            }
        }
        JsonNode at = json.get("at");
        if (at == null || !at.isTextual()) {
            throw new IllegalArgumentException("\"at\" must be an ISO-8601 instant such as \"2026-11-29T09:40:02Z\"");
        }
        Instant arrival;
        try {
            arrival = Instant.parse(at.asText());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("\"at\" is not an ISO-8601 instant: \"" + at.asText() + "\"");
        }
        JsonNode body = json.get("body");
        if (body == null || body.isNull()) {
            throw new IllegalArgumentException("\"body\" is missing: give the message body as a JSON value or a string");
        }
        String bodyText = body.isTextual() ? body.asText() : rawValue(text, "body");
        JsonNode id = json.get("messageId");
        if (id != null && (!id.isTextual() || id.asText().isBlank())) {
            throw new IllegalArgumentException("\"messageId\" must be a non-empty string");
        }
        String messageId = id == null ? generatedId(line) : id.asText();
        Map<String, String> attributes = new LinkedHashMap<>();
        JsonNode given = json.get("attributes");
        if (given != null) {
            if (!given.isObject()) {
                throw new IllegalArgumentException("\"attributes\" must be an object of SQS attribute names to strings");
            }
            given.fields().forEachRemaining(e -> attributes.put(e.getKey(),
                    e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString()));
        }
        return new TraceMessage(line, arrival, bodyText, messageId, attributes);
    }

    /**
     * The text of the top-level field {@code name} exactly as the line writes it: a JSON-valued body is sent as its
     * bytes in the file, so {@code 0.10} stays {@code 0.10} and a number no double holds stays exact (re-serialising
     * the parsed value would change both, and intake would see another message than the file's).
     */
    private static String rawValue(String text, String name) {
        try (JsonParser parser = JSON.getFactory().createParser(text)) {
            parser.nextToken();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                boolean wanted = name.equals(parser.currentName());
                parser.nextToken();
                int start = (int) parser.currentTokenLocation().getCharOffset();
                parser.skipChildren();
                if (wanted) {
                    return text.substring(start, (int) parser.currentLocation().getCharOffset());
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage());
        }
        throw new IllegalArgumentException("\"" + name + "\" is missing");
    }

    /** Stable across replays of the same file, so redelivered and replayed messages keep their ids. */
    static String generatedId(int line) {
        return UUID.nameUUIDFromBytes(("fanin-replay trace line " + line).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
