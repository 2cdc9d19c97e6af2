package dev.fanin.cli.replay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.cli.ArrivalOffset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * Reads a trace: JSON Lines in UTF-8, one SQS message per line,
 * {@code {"at": ISO-8601 or offset, "body": JSON value or string, "messageId": optional, "attributes": optional}}.
 * An offset ({@code "+2s"}, {@link ArrivalOffset}) counts from the first line with an instant, or from
 * {@link #START_WITHOUT_INSTANT} when none has one; a line without {@code at} arrives with the line before it in the
 * file (the first one at offset 0). Blank lines and lines starting with {@code #} are skipped. Every problem is
 * collected with its line number, so one run names them all. Messages are returned in arrival order (stable for
 * equal times: file order). {@code fanin replay} and {@code fanin local --events} both read their files here.
 */
public final class TraceReader {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of("at", "body", "messageId", "attributes");
    /** The SQS system attributes a trace may set that are numbers. */
    private static final List<String> NUMERIC_ATTRIBUTES = List.of(SqsDeliveries.SENT_TIMESTAMP, SqsDeliveries.FIRST_RECEIVE_TIMESTAMP,
            SqsDeliveries.RECEIVE_COUNT);
    /** Where a trace whose every {@code at} is an offset starts: fixed, so a replay of it is reproducible. */
    static final Instant START_WITHOUT_INSTANT = Instant.parse("2026-01-01T00:00:00Z");

    /**
     * A line read: its arrival is an instant, or an offset resolved once the whole file is read, or (neither, when
     * the line has no {@code at}) the arrival of the line before it.
     */
    private record Line(TraceMessage message, Duration offset, boolean withPrevious) { }

    private TraceReader() {
    }

    /**
     * @throws IllegalArgumentException listing every malformed line
     * @throws UncheckedIOException     when the file cannot be read
     */
    public static List<TraceMessage> read(Path trace) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(trace);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the trace " + trace, e);
        }
        List<String> lines = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i < bytes.length && bytes[i] != '\n') {
                continue;
            }
            if (i == bytes.length && start == i) {
                break;
            }
            ByteBuffer in = ByteBuffer.wrap(bytes, start, i - start);
            CharBuffer out = CharBuffer.allocate(i - start);
            CoderResult result = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(in, out, true);
            if (result.isError()) {
                problems.add(trace + ":" + (lines.size() + 1) + ": not valid UTF-8 at byte " + (in.position() - start + 1)
                        + " of the line; write the trace in UTF-8 (a body that is not text belongs base64-encoded in a string)");
                lines.add("");
            } else {
                lines.add(out.flip().toString());
            }
            start = i + 1;
        }
        return parse(lines, trace.toString(), problems);
    }

    public static List<TraceMessage> parse(List<String> lines, String origin) {
        return parse(lines, origin, List.of());
    }

    private static List<TraceMessage> parse(List<String> lines, String origin, List<String> earlierProblems) {
        List<Line> read = new ArrayList<>();
        List<String> problems = new ArrayList<>(earlierProblems);
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            try {
                read.add(message(i + 1, text));
            } catch (IllegalArgumentException e) {
                problems.add(origin + ":" + (i + 1) + ": " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            problems.sort(Comparator.comparingInt(TraceReader::lineNumber));
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        Instant base = read.stream().filter(l -> l.offset() == null && !l.withPrevious()).map(l -> l.message().at())
                .findFirst().orElse(START_WITHOUT_INSTANT);
        List<TraceMessage> messages = new ArrayList<>();
        Instant previous = base;
        for (Line l : read) {
            TraceMessage m = l.message();
            Instant at = l.withPrevious() ? previous : l.offset() == null ? m.at() : base.plus(l.offset());
            messages.add(new TraceMessage(m.line(), at, m.body(), m.messageId(), m.attributes()));
            previous = at;
        }
        messages.sort(Comparator.comparing(TraceMessage::at));
        return List.copyOf(messages);
    }

    /** The line number of a problem {@code origin:N: ...}, for listing problems in file order. */
    private static int lineNumber(String problem) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(":(\\d+): ").matcher(problem);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    private static Line message(int line, String text) {
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
        boolean withPrevious = at == null || at.isNull();
        if (!withPrevious && !at.isTextual()) {
            throw new IllegalArgumentException("\"at\" must be an ISO-8601 instant such as \"2026-11-29T09:40:02Z\" or an offset such as \"+2s\"");
        }
        Instant arrival = START_WITHOUT_INSTANT;
        Duration offset = withPrevious ? null : ArrivalOffset.parse(at.asText()).orElse(null);
        if (!withPrevious && offset == null) {
            try {
                arrival = Instant.parse(at.asText());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("\"at\" is neither an ISO-8601 instant nor an offset such as \"+2s\": \"" + at.asText() + "\"");
            }
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
            // SQS always sends these as digits; intake would take another value for the arrival time without a word.
            for (String numeric : NUMERIC_ATTRIBUTES) {
                String value = attributes.get(numeric);
                if (value != null && !SqsDeliveries.readable(numeric, value)) {
                    throw new IllegalArgumentException("\"attributes\"." + numeric + " must be digits, as SQS sends it (epoch"
                            + " milliseconds, at most 15 digits, or a count, at most 9), not \"" + value + "\"");
                }
            }
        }
        return new Line(new TraceMessage(line, arrival, bodyText, messageId, attributes), offset, withPrevious);
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

    /**
     * The id of a line that gives none: stable across replays of the same file, so redelivered and replayed messages
     * keep their ids.
     */
    public static String generatedId(int line) {
        return UUID.nameUUIDFromBytes(("fanin-replay trace line " + line).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
