package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReaderTest {

    @Test
    void readsJsonAndStringBodiesInArrivalOrderSkippingCommentsAndBlankLines() {
        List<TraceMessage> trace = TraceReader.parse(List.of(
                "# a comment",
                "{\"at\":\"2026-01-01T00:00:02Z\",\"body\":{\"a\":1},\"messageId\":\"m2\",\"attributes\":{\"SentTimestamp\":\"5\"}}",
                "",
                "{\"at\":\"2026-01-01T00:00:01Z\",\"body\":\"not json, verbatim\"}"), "t");
        assertThat(trace).extracting(TraceMessage::body).containsExactly("not json, verbatim", "{\"a\":1}");
        assertThat(trace.get(0).messageId()).isEqualTo(TraceReader.generatedId(4));
        assertThat(trace.get(1).attributes()).containsEntry("SentTimestamp", "5");
        assertThat(trace.get(1).at()).isEqualTo(Instant.parse("2026-01-01T00:00:02Z"));
    }

    /** A SentTimestamp that is not digits was replaced by the arrival time without a word. */
    @Test
    void aSystemAttributeThatIsNotANumberIsRefusedNamingIt() {
        assertThatThrownBy(() -> TraceReader.parse(List.of(
                "{\"at\":\"2026-01-01T00:00:02Z\",\"body\":\"b\",\"attributes\":{\"SentTimestamp\":\"abc\"}}"), "t"))
                .hasMessageContaining("t:1:").hasMessageContaining("\"attributes\".SentTimestamp must be digits").hasMessageContaining("\"abc\"");
    }

    /** Sixteen digits (microseconds written by mistake) passed the trace's check, and intake then ignored them (a review). */
    @Test
    void aSentTimestampIntakeWouldIgnoreIsRefusedNamingTheLine() {
        String micros = "{\"at\":\"2026-11-29T09:40:00Z\",\"body\":{\"a\":1},\"attributes\":{\"SentTimestamp\":\"1764409200000000\"}}";
        assertThatThrownBy(() -> TraceReader.parse(List.of(micros), "t.jsonl"))
                .hasMessageContaining("t.jsonl:1:").hasMessageContaining("at most 15 digits").hasMessageContaining("\"1764409200000000\"");
        assertThat(TraceReader.parse(List.of(micros.replace("1764409200000000", "176440920000000")), "t.jsonl")).hasSize(1);
    }

    @Test
    void aJsonBodyIsSentAsTheFileWritesIt() {
        String body = "{ \"rows\": 12345678901234567890.5, \"ratio\":0.10, \"n\":[1e2, -0.0] , \"s\":\"\\u00e9\" }";
        List<TraceMessage> trace = TraceReader.parse(List.of("{\"at\":\"2026-01-01T00:00:01Z\",\"body\": " + body + " , \"messageId\":\"m\"}"), "t");

        assertThat(trace.get(0).body()).isEqualTo(body);
    }

    @Test
    void relativeArrivalsCountFromTheFirstInstantAsLocalEventsReadsThem() {
        List<TraceMessage> trace = TraceReader.parse(List.of(
                "{\"at\":\"+2s\",\"body\":\"b\"}",
                "{\"at\":\"2026-11-29T09:40:00Z\",\"body\":\"a\"}",
                "{\"at\":\"1.5s\",\"body\":\"c\"}",
                "{\"at\":\"PT1M\",\"body\":\"d\"}"), "t");
        assertThat(trace).extracting(TraceMessage::body).containsExactly("a", "c", "b", "d");
        assertThat(trace).extracting(TraceMessage::at).containsExactly(Instant.parse("2026-11-29T09:40:00Z"),
                Instant.parse("2026-11-29T09:40:01.500Z"), Instant.parse("2026-11-29T09:40:02Z"), Instant.parse("2026-11-29T09:41:00Z"));

        List<TraceMessage> onlyOffsets = TraceReader.parse(List.of("{\"at\":\"+250ms\",\"body\":\"x\"}"), "t");
        assertThat(onlyOffsets.get(0).at()).isEqualTo(TraceReader.START_WITHOUT_INSTANT.plusMillis(250));
    }

    @Test
    void aLineWithoutAtArrivesWithTheLineBeforeItInTheFile() {
        List<TraceMessage> trace = TraceReader.parse(List.of(
                "{\"body\":\"first\"}",
                "{\"at\":\"2026-11-29T09:40:05Z\",\"body\":\"b\"}",
                "{\"at\":null,\"body\":\"with b\"}",
                "{\"at\":\"+1s\",\"body\":\"c\"}",
                "{\"body\":\"with c\"}"), "t");

        assertThat(trace).extracting(TraceMessage::body).containsExactly("first", "b", "with b", "c", "with c");
        assertThat(trace).extracting(TraceMessage::at).containsExactly(Instant.parse("2026-11-29T09:40:05Z"),
                Instant.parse("2026-11-29T09:40:05Z"), Instant.parse("2026-11-29T09:40:05Z"),
                Instant.parse("2026-11-29T09:40:06Z"), Instant.parse("2026-11-29T09:40:06Z"));
    }

    @Test
    void invalidUtf8IsALineNumberedProblemBesideTheOthers(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.jsonl");
        byte[] good = "{\"at\":\"2026-01-01T00:00:01Z\",\"body\":\"caf\u00e9\"}\n".getBytes(StandardCharsets.UTF_8);
        byte[] bad = "{\"at\":\"2026-01-01T00:00:02Z\",\"body\":\"caf\u00e9\"}\n".getBytes(StandardCharsets.ISO_8859_1);
        byte[] worse = "{\"at\":\"later\",\"body\":1}\n".getBytes(StandardCharsets.UTF_8);
        Files.write(file, concat(good, bad, worse));

        assertThatThrownBy(() -> TraceReader.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file + ":2: not valid UTF-8 at byte 41 of the line")
                .hasMessageContaining(file + ":3: \"at\" is neither");
        Files.write(file, good);
        assertThat(TraceReader.read(file)).singleElement().extracting(TraceMessage::body).isEqualTo("caf\u00e9");
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    @Test
    void namesEveryBadLineWithItsNumber() {
        assertThatThrownBy(() -> TraceReader.parse(List.of(
                "{\"at\":\"yesterday\",\"body\":1}",
                "{\"at\":\"2026-01-01T00:00:01Z\"}",
                "{\"at\":\"2026-01-01T00:00:01Z\",\"body\":1,\"colour\":2}",
                "[1]"), "t.jsonl"))
                .hasMessageContaining("t.jsonl:1: \"at\" is neither an ISO-8601 instant nor an offset such as \"+2s\": \"yesterday\"")
                .hasMessageContaining("t.jsonl:2: \"body\" is missing")
                .hasMessageContaining("t.jsonl:3: unknown field \"colour\"")
                .hasMessageContaining("t.jsonl:4: a trace line must be a JSON object");
    }
}
