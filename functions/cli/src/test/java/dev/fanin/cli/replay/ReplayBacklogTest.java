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
