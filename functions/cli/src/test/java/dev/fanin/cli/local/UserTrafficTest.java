package dev.fanin.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserTrafficTest {

    @Test
    void readsOffsetsIsoTimesRelativeToTheFirstAndBodiesVerbatimOrAsJson() {
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
        assertThat(t.timed()).extracting(Send::body).contains("{\"type\":\"shard.done\"}", "raw text", "[1,2]");
        assertThat(t.timed().get(0).what()).isEqualTo("line 2: {\"type\":\"shard.done\"}");
        assertThat(t.expectations()).singleElement().extracting(Traffic.Expectation::description).isEqualTo("at least one aggregate");
    }

    @Test
    void namesTheLineOfEveryMistake() {
        assertThatThrownBy(() -> UserTraffic.parse(List.of("{\"body\": {}}", "{nope"), "f.jsonl"))
                .hasMessageStartingWith("f.jsonl:2: not JSON");
        assertThatThrownBy(() -> UserTraffic.parse(List.of("{\"at\": \"0s\"}"), "f.jsonl"))
                .hasMessageContaining("f.jsonl:1: each line is an object with a \"body\"");
        assertThatThrownBy(() -> UserTraffic.parse(List.of("{\"at\": \"soon\", \"body\": 1}"), "f.jsonl"))
                .hasMessageContaining("f.jsonl:1: \"at\" \"soon\" is neither an ISO-8601 time nor an offset");
        assertThatThrownBy(() -> UserTraffic.parse(List.of(
                "{\"at\": \"2026-11-29T10:00:05Z\", \"body\": 1}", "{\"at\": \"2026-11-29T10:00:00Z\", \"body\": 1}"), "f.jsonl"))
                .hasMessageContaining("f.jsonl:2: \"at\" 2026-11-29T10:00:00Z is before the first line's time");
        assertThatThrownBy(() -> UserTraffic.parse(List.of("", "# only comments"), "f.jsonl"))
                .hasMessageStartingWith("f.jsonl: no messages");
    }
}
