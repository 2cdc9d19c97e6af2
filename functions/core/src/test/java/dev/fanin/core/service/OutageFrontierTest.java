package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A window open when a short outage (shorter than idleAfter) began. The backlog is drained shuffled: the first behind
 * batch carries a newer message only. Its evidence must reach back to the pipeline's last arrival, or it would cap the
 * watermark at its own send time, above the window's end, while the window's own events (sent earlier) are still in
 * the queue: the window would close complete without them and take them as a correction. In send order they are in
 * revision 0.
 */
class OutageFrontierTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
            "{outOfOrderness: 10s, idleAfter: 5m}", "    allowedLateness: 10m\n");

    private record Msg(String id, Instant eventTime, Instant deliveredAt) {
        Instant sent() {
            return eventTime.plusMillis(500);
        }
    }

    @ParameterizedTest(name = "shuffled drain: {0}")
    @ValueSource(booleans = {false, true})
    void aWindowOpenWhenTheOutageBeganKeepsItsQueuedEventsInRevisionZero(boolean shuffled) throws Exception {
        Instant resumed = T0.plus(Duration.ofMinutes(4)); // the outage: from T0+25 s to T0+4 min, under idleAfter
        List<Msg> msgs = List.of(
                new Msg("e1", T0.plusSeconds(20), T0.plusSeconds(21)),                                    // before the outage
                new Msg("e2", T0.plusSeconds(30), shuffled ? resumed.plusSeconds(120) : resumed),          // queued, window 10:00
                new Msg("e3", T0.plusSeconds(150), shuffled ? resumed : resumed.plusSeconds(120)));        // queued, window 10:02
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingTimers timers = new RecordingTimers();
        FaninEngine engine = InMemoryEngines.of(YAML, new InMemoryWindowStore(4), emitter, timers, clock);
        RecordingSideOutput side = (RecordingSideOutput) engine.ports().sideOutput();
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);
        TimerService timerService = new TimerService(engine);
        Instant nextSweep = T0.plusSeconds(10);
        for (Instant now = T0; now.isBefore(T0.plus(Duration.ofMinutes(60))); now = now.plusSeconds(1)) {
            clock.set(now);
            for (Msg m : msgs) {
                if (m.deliveredAt().equals(now)) {
                    ingest.handle(List.of(new InboundMessage(m.id(), "{\"k\":\"a\",\"id\":\"" + m.id() + "\",\"t\":"
                            + m.eventTime().toEpochMilli() + "}", 1, m.sent(), now, Map.of())));
                }
            }
            Instant at = now;
            timers.takeDue(now).forEach(t -> timerService.fire(t.wakeup()));
            if (!now.isBefore(nextSweep)) {
                sweep.sweep(at.plusSeconds(60));
                nextSweep = nextSweep.plusSeconds(10);
            }
        }
        List<String> out = new ArrayList<>();
        for (var e : emitter.emitted()) {
            JsonNode a = JSON.readTree(e.detailJson());
            out.add(a.path("window").path("start").asText() + " r" + a.path("revision").asInt() + " " + a.path("closeReason").asText()
                    + " complete=" + a.path("complete").asBoolean() + " seen=" + a.path("seen").asInt());
        }
        assertThat(side.sideRecords()).isEmpty();
        assertThat(out).contains("2026-11-29T10:00:00.000Z r0 WATERMARK complete=true seen=2")
                .noneMatch(s -> s.contains("LATE_CORRECTION"));
    }
}
