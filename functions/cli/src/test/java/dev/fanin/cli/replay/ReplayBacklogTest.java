package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 17: a 10-minute consumer outage whose backlog is delivered shuffled gives the aggregates of the same alerts
 * delivered as they were sent (the queue-aware watermark, docs/SEMANTICS.md "Consumer lag"), also with redelivery and
 * crashes; nothing goes to the side output.
 */
class ReplayBacklogTest {

    private static final Path TRACE = ReplayRun.trace("alert-backlog");
    private static final List<String> OUTAGE = List.of("0s+10m");
    private static final Duration SHUFFLE = Duration.ofSeconds(20);

    @TempDir
    static Path runs;
    private static Map<String, JsonNode> inOrder;

    @BeforeAll
    static void replayInOrder() {
        ReplayRun run = ReplayRun.run(TRACE, runs.resolve("in-order"), 0, 0, 1);
        inOrder = byWindow(run);
        assertThat(inOrder).as("3 storms, 3 aggregates").hasSize(3);
        inOrder.values().forEach(a -> assertThat(a.path("seen").asInt()).isEqualTo(20));
        assertThat(run.lateRecords()).isEmpty();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aShuffledBacklogGivesTheAggregatesOfInOrderDelivery(long seed) {
        ReplayRun late = ReplayRun.run(TRACE, runs.resolve("backlog-" + seed), 0, 0, seed, OUTAGE, SHUFFLE);

        assertThat(late.counter("messagesHeldByOutages")).as("every alert waited for the consumers").isEqualTo(60);
        assertThat(byWindow(late)).isEqualTo(inOrder);
        assertThat(late.lateRecords()).isEmpty();
        assertThat(late.counter("openWindowsAtEnd")).isZero();
    }

    @Test
    void soItDoesUnderRedeliveryAndCrashes() {
        ReplayRun redelivered = ReplayRun.run(TRACE, runs.resolve("backlog-redeliver"), 0.5, 0, 7, OUTAGE, SHUFFLE);

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(redelivered.counter("messagesRedelivered")).as("duplicates delivered").isPositive();
        softly.assertThat(byWindow(redelivered)).as("with --redeliver 0.5").isEqualTo(inOrder);
        softly.assertThat(redelivered.lateRecords()).as("late records with --redeliver 0.5").isEmpty();
        // A crash lands at a random call of an invocation, so whether a seed crashes anything depends on the calls
        // each invocation makes, which every change to the services moves: seeds from 17 on until one does (seed 13
        // once did, then stopped when commits and sweeps made fewer calls). Every run must give the in-order aggregates.
        long crashes = 0;
        for (long seed = 17; seed < 27 && crashes == 0; seed++) {
            ReplayRun crashed = ReplayRun.run(TRACE, runs.resolve("backlog-crash-" + seed), 0, 0.3, seed, OUTAGE, SHUFFLE);
            crashes = crashed.counter("crashesInjected");
            softly.assertThat(byWindow(crashed)).as("with --crash-rate 0.3, seed %d", seed).isEqualTo(inOrder);
            softly.assertThat(crashed.lateRecords()).as("late records with --crash-rate 0.3, seed %d", seed).isEmpty();
        }
        softly.assertThat(crashes).as("crashes injected by one of seeds 17-26").isPositive();
        softly.assertAll();
    }

    /**
     * A batching window longer than {@code outOfOrderness} is no backlog: the poller receives each message as it
     * becomes visible and holds it (a review: the replay took the invocation's time as the first receive, so every
     * message looked 20 s behind, the watermark held, and a steady stream's minute windows closed only when the stream
     * stopped, unlike the deployed functions'). A reading every 2 s for 4 minutes, batched over 20 s: the first minute
     * closes once the watermark passes its end, within a batching window or two.
     */
    @Test
    void aLongBatchingWindowIsNoBacklog() throws java.io.IOException {
        Path template = runs.resolve("template-batching-20s.yaml");
        String text = java.nio.file.Files.readString(ReplayRun.REPO.resolve("template.yaml"));
        String batching = "  IngestMaxBatchingWindowSeconds:\n    Type: Number\n    Default: 1\n";
        assertThat(text).contains(batching);
        java.nio.file.Files.writeString(template, text.replace(batching, batching.replace("Default: 1", "Default: 20")));
        Path config = runs.resolve("steady.yaml");
        java.nio.file.Files.writeString(config, """
                version: 1
                pipelines:
                  - name: steady
                    envelope: raw
                    key: [$.k]
                    eventId: $.id
                    eventTime: {path: $.t}
                    window: {type: tumbling, size: 1m}
                    triggers: {maxLifetime: 30m}
                    watermark: {outOfOrderness: 5s, idleAfter: 1m}
                    emit:
                      eventbridge: {bus: "${FANIN_EMIT_BUS_NAME}", source: fanin, detailType: fanin.aggregate}
                """);
        java.time.Instant t0 = java.time.Instant.parse("2026-11-29T10:00:00Z");
        StringBuilder trace = new StringBuilder();
        for (int i = 0; i < 120; i++) {
            java.time.Instant at = t0.plusSeconds(2L * i);
            trace.append("{\"at\":\"").append(at).append("\",\"body\":{\"k\":\"sensor\",\"id\":\"r").append(i)
                    .append("\",\"t\":\"").append(at).append("\"}}\n");
        }
        Path steady = runs.resolve("steady.jsonl");
        java.nio.file.Files.writeString(steady, trace);

        ReplayRun batched = ReplayRun.run(config, template, steady, runs.resolve("batching-20s"), 0, 0, 1, List.of(), Duration.ZERO);

        JsonNode first = batched.aggregatesById().values().stream()
                .filter(a -> a.path("window").path("start").asText().equals("2026-11-29T10:00:00.000Z")).findFirst().orElseThrow();
        assertThat(first.path("aggregations").path("count").asInt()).isEqualTo(30);
        assertThat(java.time.Instant.parse(first.path("closedAt").asText())).as("closed while the stream still runs")
                .isBefore(t0.plusSeconds(120));
        assertThat(batched.lateRecords()).isEmpty();
    }

    /**
     * Every revision by key, window start and revision, without processing times and ids: a session is named after
     * the first event time its first batch saw, which depends on the delivery order.
     */
    static Map<String, JsonNode> byWindow(ReplayRun run) {
        Map<String, JsonNode> byWindow = new TreeMap<>();
        for (JsonNode aggregate : run.aggregatesById().values()) {
            ObjectNode a = aggregate.deepCopy();
            a.remove(List.of("openedAt", "closedAt", "emittedAt", "aggregateId", "corrects"));
            ((ObjectNode) a.path("window")).remove("id");
            byWindow.put(a.path("key").asText() + " " + a.path("window").path("start").asText() + " r" + a.path("revision").asInt(), a);
        }
        return byWindow;
    }
}
