package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the sinks carry reaches the replay's outputs: every side-output record and every dead letter has a reason code
 * beside its text in {@code late.jsonl} and {@code dead-letters.jsonl}, and {@code summary.json} counts them by it (a
 * window the HOLD policy dead-letters was the bare aggregate, counted under kind "?"; an S3 notification rejected
 * record by record was counted under the code "record 1").
 */
class ReplayReasonCodesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String CONFIG = """
            version: 1
            pipelines:
              - name: held
                match: [{path: $.type, equals: part}]
                key: [$.batch]
                eventId: $.id
                window: {type: tumbling, size: 1m}
                triggers:
                  expected: {count: 2}
                  maxLifetime: 2m
                incomplete: {policy: hold, atDeadline: dead-letter}
              - name: uploads
                envelope: s3
                match: [{path: $.s3.bucket.name, equals: acme}]
                key: [{path: $.s3.object.key, extract: '^(.*)/[^/]+$'}]
                triggers: {maxLifetime: 2m}
            """;

    @TempDir
    Path dir;

    @Test
    void everySideOutputRecordAndDeadLetterCarriesItsReasonCodeIntoEveryOutput() throws Exception {
        Path config = Files.writeString(dir.resolve("pipelines.yaml"), CONFIG);
        String record = "{\"eventSource\":\"aws:s3\",\"eventTime\":\"2026-11-29T03:05:01.000Z\",\"s3\":{\"bucket\":{\"name\":\"%s\"},"
                + "\"object\":{\"key\":\"%s\",\"sequencer\":\"0A\"}}}";
        Path trace = Files.writeString(dir.resolve("trace.jsonl"), String.join("\n",
                "{\"at\":\"2026-11-29T03:05:00.000Z\",\"body\":{\"type\":\"part\",\"batch\":\"b7\",\"id\":\"p1\"}}",
                "{\"at\":\"2026-11-29T03:05:01.500Z\",\"body\":{\"Records\":[" + String.format(record, "acme", "in/a.csv") + ","
                        + String.format(record, "acme", "no-prefix") + "," + String.format(record, "other", "in/b.csv") + "]}}"));

        ReplayRun run = ReplayRun.run(config, trace, dir.resolve("out"), 0, 0, 1, List.of(), java.time.Duration.ZERO);

        List<JsonNode> late = run.lateRecords().stream().map(ReplayReasonCodesTest::parse).toList();
        assertThat(late).singleElement().satisfies(r -> {
            assertThat(r.path("kind").asText()).isEqualTo("WINDOW_DEAD_LETTERED");
            assertThat(r.path("reasonCode").asText()).isEqualTo("INCOMPLETE_AT_DEADLINE");
            assertThat(r.path("reason").asText()).startsWith("INCOMPLETE_AT_DEADLINE: still incomplete at its hard deadline ");
            assertThat(r.path("pipeline").asText()).isEqualTo("held");
            assertThat(r.path("key").asText()).isEqualTo("b7");
            assertThat(r.path("aggregate").path("aggregateId").asText()).isEqualTo(r.path("aggregateId").asText()).endsWith("/r0");
            assertThat(r.path("aggregate").path("complete").asBoolean()).isFalse();
        });
        List<JsonNode> dead = run.deadLetterRecords().stream().map(ReplayReasonCodesTest::parse).toList();
        assertThat(dead).singleElement().satisfies(d -> {
            assertThat(d.path("reasonCode").asText()).isEqualTo("MISSING_KEY,NO_MATCHING_PIPELINE");
            assertThat(d.path("reason").asText()).startsWith("record 1: MISSING_KEY: ").contains("; record 2: NO_MATCHING_PIPELINE: ");
        });

        JsonNode summary = new ReplaySummary(run.outputs(), run.state(), 2).toJson();
        assertThat(summary.path("late").path("byKind").toString()).isEqualTo("{\"WINDOW_DEAD_LETTERED\":1}");
        assertThat(summary.path("late").path("byReasonCode").toString()).isEqualTo("{\"INCOMPLETE_AT_DEADLINE\":1}");
        assertThat(summary.path("deadLetters").path("byReasonCode").toString()).isEqualTo("{\"MISSING_KEY,NO_MATCHING_PIPELINE\":1}");
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (java.io.IOException e) {
            throw new AssertionError(line, e);
        }
    }
}
