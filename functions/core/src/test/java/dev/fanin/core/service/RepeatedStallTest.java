package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A prompt stream, one event a second, whose consumer stalls for {@code stall} s every {@code period} s (a throttled
 * function, say): the messages sent in a stall are delivered when it ends, by {@code consumers} first batches at once
 * that all read the watermark shard before any of them writes (Lambda's poller runs about five after a backlog). Each
 * stall is a short outage and lays a floor: those of one outage are one, those of outages apart stay apart, and every
 * window must close by the watermark, complete, not at maxLifetime. Found by reviews: when two outages' floors were
 * one, a floor still holding carried the first stall's send time into every next one (stalls of 20 s every 50 s); when
 * more than four floors merged into the oldest, the same (stalls every 12 s, or four first batches at once).
 */
class RepeatedStallTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
            "{outOfOrderness: 5s, idleAfter: 1m}", "    allowedLateness: 10m\n");

    @ParameterizedTest(name = "stall {0} s every {1} s, {2} first batches at once, idleAfter {3}")
    @CsvSource({"20,50,1,1m", "20,90,1,1m", "10,120,1,1m", "8,12,1,1m", "8,14,1,1m", "20,50,4,1m", "20,50,5,10s"})
    void windowsCloseByTheWatermark(int stall, int period, int containers, String idle) throws Exception {
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingTimers timers = new RecordingTimers();
        RecordingSideOutput side = new RecordingSideOutput();
        BacklogRaceTest.PinnableWatermarks watermarks = new BacklogRaceTest.PinnableWatermarks();
        FaninEngine engine = new FaninEngine(ConfigLoader.load(YAML.replace("idleAfter: 1m", "idleAfter: " + idle), "test"),
                new FaninPorts(new InMemoryWindowStore(4), watermarks, emitter, timers, side, side, Metrics.NONE),
                FaninSettings.defaults(), clock);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);
        TimerService timerService = new TimerService(engine);
        List<Instant> pending = new ArrayList<>();
        Instant end = T0.plus(Duration.ofMinutes(45));
        for (Instant now = T0; now.isBefore(end.plus(Duration.ofMinutes(40))); now = now.plusSeconds(1)) {
            clock.set(now);
            long s = Duration.between(T0, now).toSeconds();
            if (now.isBefore(end)) {
                pending.add(now);
            }
            boolean stalled = now.isBefore(end) && s % period >= period - stall;
            if (!stalled && !pending.isEmpty()) {
                boolean resume = pending.size() > 1;
                if (resume) {
                    watermarks.pinned = watermarks.inner.read("p");
                }
                for (int c = 0; c < Math.min(containers, pending.size()); c++) {
                    Instant at = now.plusMillis(c * 7L);
                    clock.set(at);
                    List<InboundMessage> batch = new ArrayList<>();
                    for (int i = c; i < pending.size(); i += containers) {
                        Instant sent = pending.get(i);
                        String id = "e" + sent.getEpochSecond();
                        batch.add(new InboundMessage(id, InMemoryEngines.rawEvent("a", id, sent), 1, sent, at, Map.of()));
                    }
                    ingest.handle(batch);
                }
                watermarks.pinned = null;
                pending.clear();
                clock.set(now);
            }
            Instant at = now;
            timers.takeDue(now).forEach(t -> timerService.fire(t.wakeup()));
            if (s % 60 == 0) {
                sweep.sweep(at.plusSeconds(60));
            }
        }
        List<String> out = new ArrayList<>();
        for (var e : emitter.emitted()) {
            JsonNode a = JSON.readTree(e.detailJson());
            out.add(a.path("window").path("start").asText().substring(11, 16) + " r" + a.path("revision").asInt() + " "
                    + a.path("closeReason").asText() + " complete=" + a.path("complete").asBoolean() + " closedAt="
                    + a.path("closedAt").asText().substring(11, 19));
        }
        assertThat(out).as("windows 10:02..10:15 close by the watermark").filteredOn(o -> o.compareTo("10:02") >= 0 && o.compareTo("10:16") < 0)
                .hasSize(14).allMatch(o -> o.contains("WATERMARK complete=true"));
    }
}
