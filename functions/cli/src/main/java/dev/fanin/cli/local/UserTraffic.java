package dev.fanin.cli.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.cli.ArrivalOffset;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The user's own traffic for {@code fanin local --events FILE}: JSON Lines, one message per line,
 * {@code {"at": ..., "body": ...}}. {@code at} is optional: an ISO-8601 instant (taken relative to the first line
 * that has one), or an offset from the start such as {@code "+1.5s"}, {@code "250ms"} or {@code "PT2S"} ({@link ArrivalOffset}); a line
 * without it is sent with the previous line. {@code body} is any JSON value (sent as its JSON text) or a string
 * (sent verbatim). Blank lines and lines starting with {@code #} are skipped.
 */
final class UserTraffic {

    private static final ObjectMapper JSON = new ObjectMapper();

    private UserTraffic() {
    }

    /** @throws IllegalArgumentException naming the line and what is wrong with it */
    static Traffic parse(List<String> lines, String source) {
        List<Send> sends = new ArrayList<>();
        Instant firstInstant = null;
        Duration previous = Duration.ZERO;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = source + ":" + (i + 1);
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(where + ": not JSON (" + e.getOriginalMessage() + "); each line is {\"at\": ..., \"body\": ...}");
            }
            if (!node.isObject() || !node.has("body")) {
                throw new IllegalArgumentException(where + ": each line is an object with a \"body\" (and optionally \"at\")");
            }
            JsonNode body = node.get("body");
            Duration at = previous;
            JsonNode atNode = node.get("at");
            if (atNode != null && !atNode.isNull()) {
                if (!atNode.isTextual()) {
                    throw new IllegalArgumentException(where + ": \"at\" must be a string: an ISO-8601 time or an offset such as \"1.5s\"");
                }
                Instant instant = instant(atNode.textValue());
                if (instant != null) {
                    if (firstInstant == null) {
                        firstInstant = instant;
                    }
                    at = Duration.between(firstInstant, instant);
                } else {
                    at = offset(atNode.textValue(), where);
                }
                if (at.isNegative()) {
                    throw new IllegalArgumentException(where + ": \"at\" " + atNode.textValue() + " is before the first line's time");
                }
            }
            previous = at;
            String text = body.isTextual() ? body.textValue() : body.toString();
            sends.add(new Send(at, text, "line " + (i + 1) + ": " + abbreviate(text)));
        }
        if (sends.isEmpty()) {
            throw new IllegalArgumentException(source + ": no messages (one JSON object per line: {\"at\": \"0s\", \"body\": {...}})");
        }
        return new Traffic(sends, List.of(), List.of(new Traffic.Expectation("at least one aggregate", null, null, false)));
    }

    private static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Duration offset(String text, String where) {
        return ArrivalOffset.parse(text).orElseThrow(() -> new IllegalArgumentException(where + ": \"at\" \"" + text
                + "\" is neither an ISO-8601 time nor an offset such as \"+1.5s\", \"250ms\" or \"PT2S\""));
    }

    static String abbreviate(String text) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() <= 80 ? oneLine : oneLine.substring(0, 77) + "...";
    }
}
