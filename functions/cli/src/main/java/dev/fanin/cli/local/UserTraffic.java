package dev.fanin.cli.local;

import dev.fanin.cli.replay.TraceMessage;
import dev.fanin.cli.replay.TraceReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The user's own traffic for {@code fanin local --events FILE}: a trace, read by {@link TraceReader} exactly as
 * {@code fanin replay} reads it (docs/REPLAY.md, "Trace format"), so one file plays in both and each body is sent
 * as the file writes it. The run starts with the earliest line; each message is sent that long after the start.
 */
final class UserTraffic {

    private UserTraffic() {
    }

    /**
     * @param note told what the file asks for that the local run cannot do
     * @throws IllegalArgumentException naming every bad line with its number
     */
    static Traffic read(Path file, Consumer<String> note) {
        List<TraceMessage> messages = TraceReader.read(file);
        queueSetsItself(messages, file.toString()).ifPresent(note);
        return of(messages, file.toString());
    }

    /** {@link #read} for lines already in memory. */
    static Traffic parse(List<String> lines, String source) {
        return of(TraceReader.parse(lines, source), source);
    }

    static Traffic of(List<TraceMessage> messages, String source) {
        if (messages.isEmpty()) {
            throw new IllegalArgumentException(source + ": no messages (one JSON object per line: {\"at\": \"+0s\", \"body\": {...}})");
        }
        Instant start = messages.get(0).at();
        List<Send> sends = new ArrayList<>();
        for (TraceMessage m : messages) {
            sends.add(new Send(Duration.between(start, m.at()), m.body(), "line " + m.line() + ": " + abbreviate(m.body())));
        }
        return new Traffic(sends, List.of(), List.of(new Traffic.Expectation("at least one aggregate", null, null, false)));
    }

    /**
     * What the file asks for that a real queue does not take from its sender: a {@code messageId} or
     * {@code attributes} on a line (honoured by {@code fanin replay}); the local queue sets its own.
     */
    static Optional<String> queueSetsItself(List<TraceMessage> messages, String source) {
        List<String> lines = new ArrayList<>();
        for (TraceMessage m : messages) {
            if (!m.attributes().isEmpty() || !m.messageId().equals(TraceReader.generatedId(m.line()))) {
                lines.add(Integer.toString(m.line()));
            }
        }
        return lines.isEmpty() ? Optional.empty() : Optional.of(source + ": messageId and attributes (line" + (lines.size() == 1 ? " " : "s ")
                + String.join(", ", lines) + ") are for fanin replay; the local queue gives every message its own id and SentTimestamp");
    }

    static String abbreviate(String text) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() <= 80 ? oneLine : oneLine.substring(0, 77) + "...";
    }
}
