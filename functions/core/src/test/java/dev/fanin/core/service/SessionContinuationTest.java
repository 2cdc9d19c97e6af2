package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 17, item 2: a continuous stream on one session key, cut short by {@code triggers.maxLifetime} or
 * {@code bounds.maxEventsPerWindow} (7 findings, 9 minutes, so within the 15-minute lifetime of each session). The
 * events after a cut open a session that continues the cut one, with a lifetime of its own; none is late (the
 * watermark is behind every one of them), so none goes to the side output, and each is counted exactly once.
 */
class SessionContinuationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final RecordingSideOutput side = new RecordingSideOutput();

    private FaninEngine engine(String triggersAndBounds) {
        String yaml = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
                + "    eventTime: {path: $.t}\n    window: {type: session, gap: 2m}\n" + triggersAndBounds
                + "    watermark: {outOfOrderness: 10s, idleAfter: 30s}\n    allowedLateness: 5s\n"
                + "    aggregations:\n      - {name: count, type: count}\n      - {name: ids, type: distinct-ids, cap: 100}\n"
                + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
        return new FaninEngine(ConfigLoader.load(yaml, "test"),
                new FaninPorts(store, new InMemoryWatermarkStore(), emitter, new RecordingTimers(), side, side, Metrics.NONE),
                FaninSettings.defaults(), clock);
    }

    /**
     * A finding every 90 s for 46 minutes (gap 2 m), each arriving a second after it happened, and a sweep every 30 s
     * (the timers are not delivered here, the sweeper closes everything).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "maxLifetime 15m | '    triggers: {maxLifetime: 15m}\n' | HARD_LIFETIME",
            "maxEventsPerWindow 7 | '    triggers: {maxLifetime: 15m}\n    bounds: {maxEventsPerWindow: 7}\n' | SIZE_LIMIT",
    })
    void aStreamCutShortContinuesInANewSessionAndNoOnTimeEventIsLate(String name, String triggersAndBounds, String cutReason)
            throws Exception {
        FaninEngine engine = engine(triggersAndBounds);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);
        int findings = 31;
        for (int i = 0; i < findings; i++) {
            Instant at = T0.plus(Duration.ofSeconds(90L * i));
            sweepUntil(sweep, at.plusSeconds(1));
            String body = InMemoryEngines.rawEvent("k", "f" + i, at);
            BatchResult r = ingest.handle(List.of(InMemoryEngines.message("m" + i, body, at.plusSeconds(1), 1)));
            assertThat(r.failedMessageIds()).as("finding %d", i).isEmpty();
        }
        sweepUntil(sweep, clock.instant().plus(Duration.ofMinutes(20)));

        assertThat(side.sideRecords()).as("side output").isEmpty();
        Map<String, JsonNode> lastBySession = new TreeMap<>();
        for (var emitted : emitter.emitted()) {
            JsonNode a = JSON.readTree(emitted.detailJson());
            lastBySession.merge(a.path("window").path("id").asText(), a,
                    (x, y) -> y.path("revision").asInt() > x.path("revision").asInt() ? y : x);
        }
        List<String> counted = new ArrayList<>();
        lastBySession.values().forEach(a -> a.path("aggregations").path("ids").path("ids").forEach(id -> counted.add(id.asText())));
        assertThat(counted).as("every finding counted once").hasSize(findings).doesNotHaveDuplicates();

        List<JsonNode> sessions = new ArrayList<>(lastBySession.values());
        assertThat(sessions).hasSizeGreaterThan(2);
        for (int i = 0; i < sessions.size(); i++) {
            JsonNode s = sessions.get(i);
            if (i < sessions.size() - 1) {
                assertThat(s.path("closeReason").asText()).as("session %d", i).isEqualTo(cutReason);
                assertThat(s.path("complete").asBoolean()).isFalse();
                // Cut just after its last event: the next session starts after it.
                assertThat(Instant.parse(s.path("window").path("end").asText()))
                        .isEqualTo(Instant.parse(s.path("lastEventTime").asText()).plusMillis(1));
            } else {
                assertThat(s.path("closeReason").asText()).isEqualTo("SESSION_GAP");
            }
            if (i > 0) {
                JsonNode previous = sessions.get(i - 1);
                assertThat(s.path("continues").asText()).as("session %d continues the cut one", i)
                        .isEqualTo(previous.path("aggregateId").asText());
                assertThat(Instant.parse(s.path("window").path("start").asText()))
                        .isAfterOrEqualTo(Instant.parse(previous.path("window").path("end").asText()));
            } else {
                assertThat(s.path("continues").isNull()).isTrue();
            }
        }
    }

    private void sweepUntil(SweepService sweep, Instant until) {
        while (clock.instant().plusSeconds(30).isBefore(until)) {
            clock.advance(Duration.ofSeconds(30));
            sweep.sweep(clock.instant().plusSeconds(50));
        }
        clock.set(until);
    }
}
