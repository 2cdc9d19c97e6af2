package dev.fanin.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserTrafficTest {

    /** Numbers no double holds, an exponent, an escape, unsorted keys and spaces: what intake must see as written. */
    static final String EXACT_BODY = "{\"zone\": 12345678901234567890.5, \"amount\": 1E+2, \"name\": \"caf\\u00e9\",  \"b\":[0.10 ,-0.0]}";

    @Test
    void readsOffsetsIsoTimesRelativeToTheFirstAndBodiesVerbatimOrAsWritten() {
        Traffic t = UserTraffic.parse(List.of(
                "# a comment",
                "{\"at\": \"2026-11-29T10:00:00Z\", \"body\": {\"type\": \"shard.done\"}}",
                "{\"at\": \"2026-11-29T10:00:02.500Z\", \"body\": \"raw text\"}",
                "{\"body\": [1, 2]}",
                "",
                "{\"at\": \"1.5s\", \"body\": {}}",
                "{\"at\": \"PT3S\", \"body\": {}}",
                "{\"at\": \"250ms\", \"body\": {}}",
                "{\"at\": \"+2s\", \"body\": {}}"), "f.jsonl");

        assertThat(t.timed()).extracting(Send::at).containsExactly(Duration.ZERO, Duration.ofMillis(250),
                Duration.ofMillis(1500), Duration.ofSeconds(2), Duration.ofMillis(2500), Duration.ofMillis(2500), Duration.ofSeconds(3));
        assertThat(t.timed()).extracting(Send::body).contains("{\"type\": \"shard.done\"}", "raw text", "[1, 2]");
        assertThat(t.timed().get(0).what()).isEqualTo("line 2: {\"type\": \"shard.done\"}");
        assertThat(t.expectations()).singleElement().extracting(Traffic.Expectation::description).isEqualTo("at least one aggregate");
    }

    @Test
    void aJsonBodyIsSentAsTheFileWritesIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("events.jsonl");
        Files.writeString(file, "{\"at\": \"+0s\", \"body\": " + EXACT_BODY + "}\n", StandardCharsets.UTF_8);

        Traffic t = UserTraffic.read(file, note -> { });

        assertThat(t.timed()).singleElement().extracting(Send::body).isEqualTo(EXACT_BODY);
    }

    @Test
    void namesEveryBadLineWithItsNumberAsReplayDoes() {
        assertThatThrownBy(() -> UserTraffic.parse(List.of("{\"body\": {}}", "{nope", "{\"at\": \"0s\"}", "{\"at\": \"soon\", \"body\": 1}"), "f.jsonl"))
                .hasMessageContaining("f.jsonl:2: not JSON")
                .hasMessageContaining("f.jsonl:3: \"body\" is missing")
                .hasMessageContaining("f.jsonl:4: \"at\" is neither an ISO-8601 instant nor an offset such as \"+2s\": \"soon\"");
        assertThatThrownBy(() -> UserTraffic.parse(List.of("", "# only comments"), "f.jsonl"))
                .hasMessageStartingWith("f.jsonl: no messages");
    }

    @Test
    void anEarlierInstantStartsTheRun() {
        Traffic t = UserTraffic.parse(List.of(
                "{\"at\": \"2026-11-29T10:00:05Z\", \"body\": 1}", "{\"at\": \"2026-11-29T10:00:00Z\", \"body\": 2}"), "f.jsonl");

        assertThat(t.timed()).extracting(Send::at, Send::body)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Duration.ZERO, "2"), org.assertj.core.groups.Tuple.tuple(Duration.ofSeconds(5), "1"));
    }

    @Test
    void whatOnlyReplayCanHonourIsNamedByLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trace.jsonl");
        Files.writeString(file, "{\"at\": \"+0s\", \"body\": 1, \"messageId\": \"m-1\"}\n{\"at\": \"+1s\", \"body\": 2}\n"
                + "{\"at\": \"+2s\", \"body\": 3, \"attributes\": {\"SentTimestamp\": \"5\"}}\n");
        List<String> notes = new ArrayList<>();

        assertThat(UserTraffic.read(file, notes::add).timed()).hasSize(3);
        assertThat(notes).containsExactly(file + ": messageId and attributes (lines 1, 3) are for fanin replay; the local queue"
                + " gives every message its own id and SentTimestamp");
    }
}
