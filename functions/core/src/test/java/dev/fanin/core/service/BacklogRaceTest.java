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
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.watermark.Backlog;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two ingest invocations of a shuffled backlog read the watermark shards at once (both before either writes), then
 * both record their backlog evidence on the same shard. The shard must join them: had the later sighting replaced
 * the earlier one, whose older frontier it never read, the cap would rise past a window that still has events in the
 * queue, which would close complete by the watermark and take them as a correction.
 */
class BacklogRaceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
            "{outOfOrderness: 10s, idleAfter: 5m}", "    allowedLateness: 10m\n");

    /** A store whose reads can be pinned to a snapshot: reads made while pinned see nothing written since. */
    static final class PinnableWatermarks implements WatermarkStore {
        final InMemoryWatermarkStore inner = new InMemoryWatermarkStore();
        Reading pinned;

        @Override
        public Reading read(String pipeline) {
            return pinned != null ? pinned : inner.read(pipeline);
        }

        @Override
        public void advance(String pipeline, Instant maxEventTime, Instant lastArrival) {
            inner.advance(pipeline, maxEventTime, lastArrival);
        }

        @Override
        public void recordBacklog(String pipeline, Backlog episode, Duration idleAfter) {
            inner.recordBacklog(pipeline, episode, idleAfter);
        }
    }

    private static InboundMessage msg(String id, Instant eventTime, Instant sent, Instant delivered) {
        return new InboundMessage(id, "{\"k\":\"a\",\"id\":\"" + id + "\",\"t\":" + eventTime.toEpochMilli() + "}", 1, sent, delivered, Map.of());
    }

    @ParameterizedTest(name = "reads overlap: {0}")
    @ValueSource(booleans = {false, true})
    void aConcurrentlyRecordedBacklogFrontierIsNotLost(boolean overlap) throws Exception {
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingSideOutput side = new RecordingSideOutput();
        PinnableWatermarks watermarks = new PinnableWatermarks();
        FaninEngine engine = new FaninEngine(ConfigLoader.load(YAML, "test"),
                new FaninPorts(new InMemoryWindowStore(4), watermarks, emitter, new RecordingTimers(), side, side, Metrics.NONE),
                FaninSettings.defaults(), clock);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);

        // The consumers were down; they come back at R, 5 minutes after the first event was sent.
        Instant r = T0.plus(Duration.ofMinutes(5));
        clock.set(r);
        // Two invocations start together and both read the (empty) shards before either writes.
        watermarks.pinned = overlap ? watermarks.read("p") : null;
        ingest.handle(List.of(msg("old-1", T0.plusSeconds(5), T0.plusSeconds(5), r)));        // window [10:00, 10:01)
        ingest.handle(List.of(msg("new-1", T0.plusSeconds(199), T0.plusSeconds(199), r)));    // window [10:03, 10:04)
        watermarks.pinned = null;

        // The drain goes on; a sweep runs after the first window's due time.
        clock.set(r.plusSeconds(80));
        sweep.sweep(r.plusSeconds(140));

        // Still in the queue: another event of the first window, sent 6 s after T0 (on time in send order).
        clock.set(r.plusSeconds(85));
        ingest.handle(List.of(msg("old-2", T0.plusSeconds(6), T0.plusSeconds(6), r.plusSeconds(85))));
        clock.set(r.plus(Duration.ofMinutes(30)));
        sweep.sweep(r.plus(Duration.ofMinutes(31)));
        clock.set(r.plus(Duration.ofMinutes(45)));
        sweep.sweep(r.plus(Duration.ofMinutes(46)));

        List<String> first = new ArrayList<>();
        for (var e : emitter.emitted()) {
            JsonNode a = JSON.readTree(e.detailJson());
            first.add(a.path("window").path("start").asText() + " r" + a.path("revision").asInt() + " " + a.path("closeReason").asText()
                    + " complete=" + a.path("complete").asBoolean() + " seen=" + a.path("seen").asInt());
        }
        assertThat(side.sideRecords()).isEmpty();
        assertThat(first).as("in send order, window 10:00 closes once, by the watermark, with both of its events")
                .contains("2026-11-29T10:00:00.000Z r0 WATERMARK complete=true seen=2")
                .noneMatch(s -> s.contains("LATE_CORRECTION"));
    }
}
