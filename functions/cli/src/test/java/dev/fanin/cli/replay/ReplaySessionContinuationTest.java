package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 17, item 2 for sessions, through the real handlers on the local endpoint: the continuous stream (a
 * finding every 90 s, gap 2m) cut by {@code maxLifetime: 15m} or by {@code maxEventsPerWindow}, clean, and with half
 * the messages delivered twice and 30 % of invocations crashed ({@code --redeliver 0.5 --crash-rate 0.3}, seed 13). Every cut session is continued by a new session
 * that says so ({@code continues}), no finding goes to the side output or the dead-letter queue, and every one is
 * counted by exactly one session.
 */
class ReplaySessionContinuationTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final int FINDINGS = 16;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({
            "maxLifetime, clean", "maxLifetime, faults", "maxEventsPerWindow, clean", "maxEventsPerWindow, faults"})
    void aStreamCutShortContinuesAndLosesNoOnTimeFinding(String cut, String mode) throws IOException {
        String bounds = cut.equals("maxEventsPerWindow") ? "    bounds: {maxEventsPerWindow: 7}\n" : "";
        Path config = dir.resolve("pipelines.yaml");
        Files.writeString(config, "version: 1\npipelines:\n  - name: findings\n    envelope: raw\n    key: [$.resource]\n"
                + "    eventId: $.id\n    eventTime: {path: $.t}\n    window: {type: session, gap: 2m}\n"
                + "    triggers: {maxLifetime: 15m}\n" + bounds
                + "    watermark: {outOfOrderness: 10s, idleAfter: 30s}\n    allowedLateness: 5s\n"
                + "    aggregations:\n      - {name: n, type: count}\n      - {name: ids, type: distinct-values, path: $.id, cap: 100}\n"
                + "    emit:\n      eventbridge: {bus: \"${FANIN_EMIT_BUS_NAME}\", source: fanin, detailType: fanin.aggregate}\n");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < FINDINGS; i++) {
            Instant t = T0.plusSeconds(90L * i);
            lines.add("{\"at\":\"" + t.plusSeconds(1) + "\",\"body\":{\"resource\":\"r1\",\"id\":\"f" + i + "\",\"t\":\"" + t + "\"}}");
        }
        Path trace = dir.resolve("stream.jsonl");
        Files.write(trace, lines);

        boolean faults = mode.equals("faults");
        ReplayRun run = ReplayRun.run(config, trace, dir.resolve("out"), faults ? 0.5 : 0, faults ? 0.3 : 0, 13, List.of(), Duration.ZERO);

        assertThat(run.lateRecords()).as("side output").isEmpty();
        assertThat(run.deadLetterRecords()).as("dead letters").isEmpty();
        if (faults) {
            assertThat(run.counter("crashesInjected")).as("crashes injected").isPositive();
        }
        Map<String, JsonNode> lastBySession = new TreeMap<>();
        for (JsonNode a : run.aggregatesById().values()) {
            lastBySession.merge(a.path("window").path("id").asText(), a,
                    (x, y) -> y.path("revision").asInt() > x.path("revision").asInt() ? y : x);
        }
        List<String> counted = new ArrayList<>();
        lastBySession.values().forEach(a -> a.path("aggregations").path("ids").path("values").forEach(v -> counted.add(v.asText())));
        assertThat(counted).as("every finding counted by one session").hasSize(FINDINGS).doesNotHaveDuplicates();

        List<JsonNode> sessions = new ArrayList<>(lastBySession.values());
        assertThat(sessions).as("cut at least once").hasSizeGreaterThan(1);
        String expectedCut = cut.equals("maxLifetime") ? "HARD_LIFETIME" : "SIZE_LIMIT";
        for (int i = 1; i < sessions.size(); i++) {
            JsonNode previous = sessions.get(i - 1);
            assertThat(previous.path("closeReason").asText()).as("session %d", i - 1).isEqualTo(expectedCut);
            assertThat(sessions.get(i).path("continues").asText()).as("session %d continues the cut one", i)
                    .isEqualTo(previous.path("aggregateId").asText());
        }
    }
}
