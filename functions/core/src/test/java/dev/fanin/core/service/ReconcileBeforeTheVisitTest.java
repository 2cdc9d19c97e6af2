package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * fire-and-reconcile through the services: the missing event of a window whose end the watermark passed, arriving in
 * the batch that passed it (before any visit fired the window), counts in the revision the window fires; it went to
 * the side output as too late, and the window fired incomplete for good.
 */
class ReconcileBeforeTheVisitTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void theMissingEventArrivingWithTheEventThatPassesTheEndCountsInTheFirstRevision() throws Exception {
        String yaml = InMemoryEngines.rawPipeline("{type: tumbling, size: 60s}", "10m", "{outOfOrderness: 0s, idleAfter: 5m}",
                "    incomplete: {policy: fire-and-reconcile}\n")
                .replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 10m, expected: {count: 3}}");
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
        FaninEngine engine = InMemoryEngines.of(yaml, new InMemoryWindowStore(4), emitter, new RecordingTimers(), clock);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);

        ingest.handle(List.of(InMemoryEngines.message("m1", InMemoryEngines.rawEvent("k", "e1", T0), T0, 1),
                InMemoryEngines.message("m2", InMemoryEngines.rawEvent("k", "e2", T0.plusSeconds(1)), T0, 1)));
        // 61 s later: the third event of the first minute, with one of the next minute (same batch)
        Instant at = T0.plusSeconds(61);
        clock.set(at);
        ingest.handle(List.of(InMemoryEngines.message("m3", InMemoryEngines.rawEvent("k", "e3", T0.plusSeconds(2)), at, 1),
                InMemoryEngines.message("m4", InMemoryEngines.rawEvent("k", "x", T0.plusSeconds(61)), at, 1)));
        for (int i = 0; i < 30; i++) {
            clock.advance(Duration.ofSeconds(10));
            sweep.sweep(clock.instant().plusSeconds(60));
        }
        List<JsonNode> first = new ArrayList<>();
        for (var e : emitter.emitted()) {
            JsonNode a = JSON.readTree(e.detailJson());
            if (a.path("window").path("start").asText().equals("2026-11-29T10:00:00.000Z")) {
                first.add(a);
            }
        }
        var side = ((RecordingSideOutput) engine.ports().sideOutput()).sideRecords();
        assertThat(side).as("e3 is the missing event of an incomplete, not final window under fire-and-reconcile").isEmpty();
        assertThat(first).hasSize(1);
        assertThat(first.get(0).path("complete").asBoolean()).isTrue();
        assertThat(first.get(0).path("seen").asInt()).isEqualTo(3);
    }
}
