package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 13, item 1: two invocations on one session key at once, with overlapping batches. Invocation A reads the key
 * and decides; before its first write lands, invocation B runs from start to end (the interleaving SQS makes possible:
 * it does not route by key). Whoever writes second must see the first's sessions: one session, every event counted
 * once. The write that B slips in before is A's first store call after its read (the due listing of its new session).
 */
class SessionKeyRaceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final FaninConfig config = ConfigLoader.load(InMemoryEngines.rawPipeline("{type: session, gap: 30s}")
            .replace("emit: {sqs", "aggregations: [{name: count, type: count}, {name: ids, type: distinct-ids}]\n    emit: {sqs"), "test");
    private final TestClock clock = new TestClock(T0.plusSeconds(6));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final WatermarkStore watermarks = new InMemoryWatermarkStore();
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final RecordingSideOutput side = new RecordingSideOutput();

    private FaninEngine engine(WindowStore windows) {
        return new FaninEngine(config, new FaninPorts(windows, watermarks, emitter, new RecordingTimers(), side, side, Metrics.NONE),
                FaninSettings.defaults(), clock);
    }

    private static InboundMessage event(String key, String id, int secondsAfterT0, Instant arrival) {
        return InboundMessage.class.cast(InMemoryEngines.message("m-" + id + "-" + arrival.toEpochMilli(),
                InMemoryEngines.rawEvent(key, id, T0.plusSeconds(secondsAfterT0)), arrival, 1));
    }

    /**
     * A = {e0 at t, e2 at t+3s}, B = {e2 at t+3s, e5 at t+5s} (the case), and its mirror where B runs inside A
     * with the earlier events: one session of three alerts either way.
     */
    @ParameterizedTest(name = "B interleaved: {0}")
    @ValueSource(booleans = {false, true})
    void twoInvocationsOnOneKeyWithOverlappingBatchesMakeOneSessionCountingEachEventOnce(boolean mirrored) throws Exception {
        String key = "k";
        Instant arrival = clock.instant();
        List<InboundMessage> a = List.of(event(key, "e0", 0, arrival), event(key, "e2", 3, arrival));
        List<InboundMessage> b = List.of(event(key, "e2", 3, arrival), event(key, "e5", 5, arrival));
        IngestService ingestB = new IngestService(engine(store));
        boolean[] interleaved = {false};
        WindowStore racing = new ForwardingWindowStore(store) {
            @Override
            public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
                if (!interleaved[0]) {
                    interleaved[0] = true;
                    assertThat(ingestB.handle(mirrored ? a : b).failedMessageIds()).isEmpty();
                }
                super.addDue(pipeline, dueAt, entries, expiresAt);
            }
        };

        assertThat(new IngestService(engine(racing)).handle(mirrored ? b : a).failedMessageIds()).isEmpty();
        assertThat(interleaved[0]).as("B ran between A's read and A's write").isTrue();
        SweepService sweep = new SweepService(engine(store));
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofMinutes(1));
            sweep.sweep(clock.instant().plusSeconds(50));
        }

        List<JsonNode> aggregates = new ArrayList<>();
        for (var emitted : emitter.emitted()) {
            aggregates.add(JSON.readTree(emitted.detailJson()));
        }
        assertThat(aggregates).as("one session, emitted once").hasSize(1);
        assertThat(aggregates.get(0).path("aggregations").path("count").asInt()).isEqualTo(3);
        List<String> ids = new ArrayList<>();
        aggregates.get(0).path("aggregations").path("ids").path("ids").forEach(id -> ids.add(id.asText()));
        assertThat(ids).containsExactly("e0", "e2", "e5");
    }
}
