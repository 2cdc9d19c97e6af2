package dev.fanin.core.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WindowStore;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the too-late tests share: a one-minute tumbling pipeline with a minute of allowed lateness (raw events
 * {@code {"k", "id", "t"}}, counted as {@code n}), a test clock, and the emitter and side output they read back.
 */
abstract class TooLateFixture {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
            "{outOfOrderness: 10s, idleAfter: 5m}", "    allowedLateness: 1m\n    aggregations: [{name: n, type: count}]\n");

    final TestClock clock = new TestClock(T0);
    final RecordingEmitter emitter = new RecordingEmitter();
    final RecordingSideOutput side = new RecordingSideOutput();
    final InMemoryWatermarkStore watermarks = new InMemoryWatermarkStore();

    FaninEngine engine(WindowStore store) {
        return new FaninEngine(ConfigLoader.load(YAML, "test"),
                new FaninPorts(store, watermarks, emitter, new RecordingTimers(), side, side, Metrics.NONE),
                FaninSettings.defaults(), clock);
    }

    /** Event {@code eventId} of key a, delivered 5 s after the last step in a message sent at {@code sent}. */
    BatchResult deliver(IngestService ingest, String messageId, String eventId, Instant eventTime, Instant sent, int attempt) {
        clock.set(clock.instant().plusSeconds(5));
        String body = "{\"k\":\"a\",\"id\":\"" + eventId + "\",\"t\":" + eventTime.toEpochMilli() + "}";
        return ingest.handle(List.of(new InboundMessage(messageId, body, attempt, sent, clock.instant(), Map.of())));
    }

    long reportsOf(String eventId) {
        return side.sideRecords().stream().filter(r -> r.json().contains("\"eventId\":\"" + eventId + "\"")).count();
    }

    /** The aggregates emitted for {@code key}, in order. */
    List<JsonNode> emittedFor(String key) {
        List<JsonNode> aggregates = new ArrayList<>();
        for (var e : emitter.emitted()) {
            try {
                JsonNode aggregate = JSON.readTree(e.detailJson());
                if (aggregate.path("key").asText().equals(key)) {
                    aggregates.add(aggregate);
                }
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        }
        return aggregates;
    }
}
