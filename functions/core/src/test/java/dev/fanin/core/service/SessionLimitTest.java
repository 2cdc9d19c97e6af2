package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.Metrics;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A key with more accepting sessions than its live item holds ({@link LiveSessions#MAX_ACCEPTING}): events far apart
 * (gap 1 s) that the watermark still calls on time (out-of-orderness 1 h), so each opens a session of its own. The
 * oldest are cut short at once, flagged incomplete with reason SESSION_LIMIT; every session still closes and every
 * event is counted exactly once.
 */
class SessionLimitTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final TestClock clock = new TestClock(T0.plusSeconds(600));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final RecordingSideOutput side = new RecordingSideOutput();
    private final FaninEngine engine = new FaninEngine(ConfigLoader.load(("version: 1\npipelines:\n  - name: p\n    envelope: raw\n"
            + "    key: [$.k]\n    eventId: $.id\n    eventTime: {path: $.t}\n    window: {type: session, gap: 1s}\n"
            + "    triggers: {maxLifetime: 10m}\n    watermark: {outOfOrderness: 9m, idleAfter: 2h}\n"
            + "    aggregations:\n      - {name: count, type: count}\n      - {name: ids, type: distinct-ids}\n"
            + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n"), "test"),
            new FaninPorts(store, new InMemoryWatermarkStore(), emitter, new RecordingTimers(), side, side, Metrics.NONE),
            FaninSettings.defaults(), clock);

    @Test
    void theOldestSessionsPastTheLimitAreCutShortAndEverySessionClosesCountingEachEventOnce() throws Exception {
        int sessions = LiveSessions.MAX_ACCEPTING + 8;
        IngestService ingest = new IngestService(engine);
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            batch.add(InMemoryEngines.message("m" + i, InMemoryEngines.rawEvent("k", "e" + i, T0.plusSeconds(10L * i)), clock.instant(), 1));
        }
        for (int from = 0; from < sessions; from += 10) {
            assertThat(ingest.handle(batch.subList(from, Math.min(sessions, from + 10))).failedMessageIds()).isEmpty();
            assertThat(store.loadLive("p", "k").sessions()).as("after the flush").hasSizeLessThanOrEqualTo(LiveSessions.MAX_ACCEPTING);
        }
        SweepService sweep = new SweepService(engine);
        for (int i = 0; i < 15; i++) {
            clock.advance(Duration.ofMinutes(1));
            sweep.sweep(clock.instant().plusSeconds(50));
        }

        Map<String, JsonNode> bySession = new TreeMap<>();
        for (var emitted : emitter.emitted()) {
            JsonNode a = JSON.readTree(emitted.detailJson());
            bySession.put(a.path("window").path("id").asText(), a);
        }
        assertThat(bySession).hasSize(sessions);
        List<JsonNode> all = new ArrayList<>(bySession.values());
        for (int i = 0; i < sessions; i++) {
            JsonNode a = all.get(i);
            assertThat(a.path("closeReason").asText()).as("session %d", i).isEqualTo(i < 8 ? "SESSION_LIMIT" : "HARD_LIFETIME");
            assertThat(a.path("complete").asBoolean()).isFalse();
            assertThat(a.path("aggregations").path("ids").path("ids").get(0).asText()).isEqualTo("e" + i);
        }
        assertThat(side.sideRecords()).isEmpty();
        assertThat(store.loadLive("p", "k").sessions()).isEmpty();
    }

    /**
     * One session whose listed values pass {@link LiveSessions#MAX_LIVE_STATE_BYTES}: it is cut short (SESSION_LIMIT)
     * and the events after it open a session that {@code continues} it, so the key's live item stays bounded, both
     * close, and every event is counted once, none sent to the side output.
     */
    @Test
    void aSessionWhoseStatePassesTheItemsByteBoundIsCutShortAndContinued() throws Exception {
        FaninEngine wide = new FaninEngine(ConfigLoader.load(("version: 1\npipelines:\n  - name: p\n    envelope: raw\n"
                + "    key: [$.k]\n    eventId: $.id\n    eventTime: {path: $.t}\n    window: {type: session, gap: 10m}\n"
                + "    triggers: {maxLifetime: 30m}\n    watermark: {outOfOrderness: 15m, idleAfter: 2h}\n"
                + "    aggregations:\n      - {name: count, type: count}\n"
                + "      - {name: names, type: distinct-values, path: $.v, cap: 600, maxValueBytes: 256}\n"
                + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n"), "test"),
                new FaninPorts(store, new InMemoryWatermarkStore(), emitter, new RecordingTimers(), side, side, Metrics.NONE),
                FaninSettings.defaults(), clock);
        IngestService ingest = new IngestService(wide);
        int events = 600;
        String padding = "x".repeat(240);
        for (int from = 0; from < events; from += 10) {
            List<InboundMessage> batch = new ArrayList<>();
            for (int i = from; i < from + 10; i++) {
                String body = "{\"k\":\"k\",\"id\":\"e" + i + "\",\"t\":" + T0.plusSeconds(i).toEpochMilli() + ",\"v\":\"" + i + padding + "\"}";
                batch.add(InMemoryEngines.message("m" + i, body, clock.instant(), 1));
            }
            assertThat(ingest.handle(batch).failedMessageIds()).isEmpty();
            long accepting = store.loadLive("p", "k").sessions().stream().mapToLong(w -> w.state().length()).sum();
            assertThat(accepting).as("after the flush").isLessThanOrEqualTo(LiveSessions.MAX_LIVE_STATE_BYTES + 10 * 300);
        }
        SweepService sweep = new SweepService(wide);
        for (int i = 0; i < 40; i++) {
            clock.advance(Duration.ofMinutes(1));
            sweep.sweep(clock.instant().plusSeconds(50));
        }

        List<JsonNode> aggregates = new ArrayList<>();
        for (var emitted : emitter.emitted()) {
            aggregates.add(JSON.readTree(emitted.detailJson()));
        }
        assertThat(aggregates).hasSizeGreaterThanOrEqualTo(2);
        assertThat(aggregates.get(0).path("closeReason").asText()).isEqualTo("SESSION_LIMIT");
        assertThat(aggregates.get(0).path("complete").asBoolean()).isFalse();
        assertThat(aggregates.get(1).path("continues").asText()).isEqualTo(aggregates.get(0).path("aggregateId").asText());
        assertThat(aggregates.stream().mapToLong(a -> a.path("aggregations").path("count").asLong()).sum()).isEqualTo(events);
        assertThat(side.sideRecords()).isEmpty();
        assertThat(store.loadLive("p", "k").sessions()).isEmpty();
    }
}
