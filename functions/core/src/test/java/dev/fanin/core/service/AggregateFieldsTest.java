package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * firstEventTime and lastEventTime are those of the events the aggregate holds (docs/SEMANTICS.md, "The aggregate,
 * field by field"): a revision after a SIZE_LIMIT split has its own, and a sentinel that does not count is not one.
 */
class AggregateFieldsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T08:13:00Z");

    private final TestClock clock = new TestClock(T0);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);

    @Test
    void aRevisionAfterASizeLimitSplitReportsItsOwnEventTimes() throws Exception {
        FaninEngine engine = engine("window: {type: tumbling, size: 1m}\n    bounds: {maxEventsPerWindow: 2, onOverflow: split}\n");
        ingest(engine, "a", 4_500, "b", 14_500, "c", 24_500);
        settle(engine);

        List<JsonNode> revisions = emitted();
        assertThat(revisions).extracting(r -> r.path("closeReason").asText()).containsExactly("SIZE_LIMIT", "WATERMARK");
        assertThat(revisions.get(0).path("firstEventTime").asText()).isEqualTo("2026-11-29T08:13:04.500Z");
        assertThat(revisions.get(0).path("lastEventTime").asText()).isEqualTo("2026-11-29T08:13:14.500Z");
        assertThat(revisions.get(1).path("seen").asInt()).isEqualTo(1);
        assertThat(revisions.get(1).path("firstEventTime").asText()).isEqualTo("2026-11-29T08:13:24.500Z");
        assertThat(revisions.get(1).path("lastEventTime").asText()).isEqualTo("2026-11-29T08:13:24.500Z");
    }

    @Test
    void aSentinelThatDoesNotCountAsAnEventSetsNoEventTime() throws Exception {
        FaninEngine engine = engine("window: {type: tumbling, size: 1m}\n    triggers:\n      maxLifetime: 10m\n"
                + "      sentinel: {when: {path: $.id, equals: done}}\n");
        ingest(engine, "a", 4_500, "b", 14_500, "done", 30_000);
        settle(engine);

        assertThat(emitted()).singleElement().satisfies(r -> {
            assertThat(r.path("closeReason").asText()).isEqualTo("SENTINEL");
            assertThat(r.path("seen").asInt()).isEqualTo(2);
            assertThat(r.path("firstEventTime").asText()).isEqualTo("2026-11-29T08:13:04.500Z");
            assertThat(r.path("lastEventTime").asText()).isEqualTo("2026-11-29T08:13:14.500Z");
        });
    }

    private FaninEngine engine(String windowAndMore) {
        String yaml = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
                + "    eventTime: {path: $.t}\n    " + windowAndMore
                + (windowAndMore.contains("triggers") ? "" : "    triggers: {maxLifetime: 10m}\n")
                + "    watermark: {outOfOrderness: 0s, idleAfter: 5s}\n"
                + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
        return InMemoryEngines.of(yaml, new InMemoryWindowStore(4), emitter, new RecordingTimers(), clock);
    }

    /** One message per (id, event time offset in ms) pair, each arriving at its event time. */
    private void ingest(FaninEngine engine, Object... idsAndOffsets) {
        IngestService ingest = new IngestService(engine);
        for (int i = 0; i < idsAndOffsets.length; i += 2) {
            Instant t = T0.plusMillis(((Number) idsAndOffsets[i + 1]).longValue());
            clock.set(t);
            String id = (String) idsAndOffsets[i];
            assertThat(ingest.handle(List.of(InMemoryEngines.message("m-" + id, InMemoryEngines.rawEvent("k", id, t), t, 1)))
                    .failedMessageIds()).isEmpty();
        }
    }

    /** Lets processing time run, sweeping, until every due close has happened. */
    private void settle(FaninEngine engine) {
        SweepService sweep = new SweepService(engine);
        for (int i = 0; i < 12; i++) {
            clock.advance(Duration.ofSeconds(10));
            sweep.sweep(clock.instant().plusSeconds(60));
        }
    }

    private List<JsonNode> emitted() throws Exception {
        List<JsonNode> all = new ArrayList<>();
        for (var e : emitter.emitted()) {
            all.add(JSON.readTree(e.detailJson()));
        }
        return all;
    }
}
