package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
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
 * function, say): the messages sent in a stall are delivered when it ends. Each stall is a short outage (under
 * idleAfter) and lays a floor. Every window must close by the watermark, not at maxLifetime. When the floors of two
 * outages were one, a floor still holding carried the older outage's send time into each next one, and with stalls
 * every 50 s every window closed at maxLifetime, flagged incomplete (found by a review).
 */
class RepeatedStallTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
            "{outOfOrderness: 5s, idleAfter: 1m}", "    allowedLateness: 10m\n");

    @ParameterizedTest(name = "stall {0} s every {1} s")
    @CsvSource({"20,50", "20,90", "10,120"})
    void windowsCloseByTheWatermark(int stall, int period) throws Exception {
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingTimers timers = new RecordingTimers();
        FaninEngine engine = InMemoryEngines.of(YAML, new InMemoryWindowStore(4), emitter, timers, clock);
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
                List<InboundMessage> batch = new ArrayList<>();
                for (Instant sent : pending) {
                    String id = "e" + sent.getEpochSecond();
                    batch.add(new InboundMessage(id, InMemoryEngines.rawEvent("a", id, sent), 1, sent, now, Map.of()));
                }
                pending.clear();
                for (int i = 0; i < batch.size(); i += 10) {
                    ingest.handle(batch.subList(i, Math.min(batch.size(), i + 10)));
                }
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
