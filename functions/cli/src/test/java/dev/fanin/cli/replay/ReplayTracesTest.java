package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.assertj.core.api.SoftAssertions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each sample trace replayed through the real handlers gives exactly the aggregates documented next to it; replaying
 * it again, with redelivery, or with crashes injected emits nothing that was not emitted before (same ids, same
 * content except emittedAt) and leaves nothing out.
 */
class ReplayTracesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, ReplayRun> CLEAN = new ConcurrentHashMap<>();

    /** Shared by the tests of the class, so that each trace's clean replay runs once. */
    @TempDir
    static Path cleanRuns;

    @TempDir
    Path out;

    private ReplayRun clean(String trace) {
        return CLEAN.computeIfAbsent(trace, t -> ReplayRun.run(ReplayRun.trace(t), cleanRuns.resolve(t), 0, 0, 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"alert-storm", "file-uploads", "shard-completions"})
    void replayGivesTheDocumentedAggregates(String trace) throws IOException {
        JsonNode expected = JSON.readTree(ReplayRun.REPO.resolve("events/traces/" + trace + ".expected.json").toFile());
        ReplayRun run = clean(trace);

        Map<String, JsonNode> actual = run.aggregatesById();
        Map<String, Object> got = new TreeMap<>();
        actual.forEach((id, a) -> got.put(id, Map.of("closeReason", a.path("closeReason").asText(),
                "complete", a.path("complete").asBoolean(), "revision", a.path("revision").asInt(),
                "counts", ReplaySummary.counts(a))));
        Map<String, Object> want = new TreeMap<>();
        expected.path("aggregates").fields().forEachRemaining(e -> want.put(e.getKey(), Map.of(
                "closeReason", e.getValue().path("closeReason").asText(),
                "complete", e.getValue().path("complete").asBoolean(),
                "revision", e.getValue().path("revision").asInt(),
                "counts", JSON.convertValue(e.getValue().path("counts"), new com.fasterxml.jackson.core.type.TypeReference<java.util.LinkedHashMap<String, Long>>() { }))));
        assertThat(got).isEqualTo(want);
        assertThat(run.lines(OutputFiles.LATE)).as("late records").isEqualTo(expected.path("late").asInt());
        assertThat(run.lines(OutputFiles.DEAD_LETTERS)).as("dead letters").isEqualTo(expected.path("deadLetters").asInt());
        assertThat(run.state().counter("openWindowsAtEnd")).isZero();
        assertThat(run.state().counter("openWindowSlotsAtEnd")).as("without crashes every slot is back").isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"alert-storm", "file-uploads", "shard-completions"})
    void replayingAgainWithRedeliveryOrCrashesEmitsTheSameAggregates(String trace) {
        Map<String, JsonNode> first = clean(trace).aggregatesById();

        ReplayRun again = ReplayRun.run(ReplayRun.trace(trace), out.resolve("again"), 0, 0, 1);
        ReplayRun redelivered = ReplayRun.run(ReplayRun.trace(trace), out.resolve("redeliver"), 0.5, 0, 7);
        ReplayRun crashed = ReplayRun.run(ReplayRun.trace(trace), out.resolve("crash"), 0, 0.3, 13);

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(again.aggregatesById()).as("replayed again").isEqualTo(first);
        // A redelivered message that finds nothing new gives its window's timer chain another message (in case a crash
        // lost the first; docs/RELIABILITY.md, finding 6). Armed at another instant, that copy can come up to the
        // 1 s of SQS's whole-second delay sooner; and duplicates change where the template's batching window (1 s)
        // cuts batches, so the batch that creates a window may be handled up to that window sooner or later. So
        // openedAt may move by up to 1 s and closedAt by less than 2 s; nothing else may change.
        softly.assertThat(withoutProcessingTimes(redelivered.aggregatesById())).as("with --redeliver 0.5")
                .isEqualTo(withoutProcessingTimes(first));
        first.forEach((id, json) -> softly.assertThat(secondsBetween(json, redelivered.aggregatesById().get(id), "closedAt"))
                .as("closedAt of %s with --redeliver 0.5", id).isLessThan(2.0));
        first.forEach((id, json) -> softly.assertThat(secondsBetween(json, redelivered.aggregatesById().get(id), "openedAt"))
                .as("openedAt of %s with --redeliver 0.5", id).isLessThanOrEqualTo(1.0));
        // A crash between a window write and its timer send loses the timer until the batch comes back (or the next
        // sweep), so closedAt may differ; ids, counts and content must not.
        softly.assertThat(withoutProcessingTimes(crashed.aggregatesById())).as("with --crash-rate 0.3").isEqualTo(withoutProcessingTimes(first));
        // docs/REPLAY.md, "What faults may change": up to about 11 s earlier, up to the sweeper-alone latency later.
        first.forEach((id, json) -> softly.assertThat(secondsLater(json, crashed.aggregatesById().get(id)))
                .as("closedAt of %s with --crash-rate 0.3, seconds later than clean", id).isBetween(-11.0, 120.0));
        softly.assertThat(redelivered.state().counter("messagesRedelivered")).as("redeliveries injected").isPositive();
        softly.assertThat(crashed.state().counter("crashesInjected")).as("crashes injected").isPositive();
        softly.assertAll();
    }

    private static double secondsBetween(JsonNode a, JsonNode b, String field) {
        if (a == null || b == null) {
            return Double.MAX_VALUE;
        }
        Instant x = Instant.parse(a.path(field).asText());
        Instant y = Instant.parse(b.path(field).asText());
        return Math.abs(Duration.between(x, y).toMillis()) / 1000.0;
    }

    /** How much later {@code b} closed than {@code a}, in seconds (negative: earlier). */
    private static double secondsLater(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return Double.MAX_VALUE;
        }
        return Duration.between(Instant.parse(a.path("closedAt").asText()), Instant.parse(b.path("closedAt").asText())).toMillis() / 1000.0;
    }

    private static Map<String, JsonNode> withoutProcessingTimes(Map<String, JsonNode> aggregates) {
        Map<String, JsonNode> copy = new java.util.TreeMap<>();
        aggregates.forEach((id, json) -> {
            com.fasterxml.jackson.databind.node.ObjectNode c = json.deepCopy();
            c.remove("closedAt");
            c.remove("openedAt");
            copy.put(id, c);
        });
        return copy;
    }
}
