package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

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

    @Test
    void aJsonBodyIsSentAsTheFileWritesIt() {
        String body = "{ \"rows\": 12345678901234567890.5, \"ratio\":0.10, \"n\":[1e2, -0.0] , \"s\":\"\\u00e9\" }";
        List<TraceMessage> trace = TraceReader.parse(List.of("{\"at\":\"2026-01-01T00:00:01Z\",\"body\": " + body + " , \"messageId\":\"m\"}"), "t");

        assertThat(trace.get(0).body()).isEqualTo(body);
    }

    @Test
    void namesEveryBadLineWithItsNumber() {
        assertThatThrownBy(() -> TraceReader.parse(List.of(
                "{\"at\":\"yesterday\",\"body\":1}",
                "{\"at\":\"2026-01-01T00:00:01Z\"}",
                "{\"at\":\"2026-01-01T00:00:01Z\",\"body\":1,\"colour\":2}",
                "[1]"), "t.jsonl"))
                .hasMessageContaining("t.jsonl:1: \"at\" is not an ISO-8601 instant")
                .hasMessageContaining("t.jsonl:2: \"body\" is missing")
                .hasMessageContaining("t.jsonl:3: unknown field \"colour\"")
                .hasMessageContaining("t.jsonl:4: a trace line must be a JSON object");
    }
}
