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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A prompt stream, one event a second; an outage from 10:01:40 to 10:02:30 (under idleAfter; nothing sent in its last
 * 10 s); the 40 queued messages drained after it, one every 2 or 8 s (80 or 320 s, longer than idleAfter), newest
 * first or shuffled. With {@code blip}, one message seen behind 2 s before the outage (sent 10:01:20, first received
 * 10:01:38). Window 10:01 must close in revision 0 with its 60 events. When the backlog's frontier moved with the
 * last idleAfter of evidence alone, the blip's evidence kept the drain from reaching back to the last arrival, and a
 * drain longer than idleAfter let the frontier pass messages of the outage not yet delivered: 20 of the window's
 * events came as corrections. The outage's floor holds while its messages keep coming.
 */
class OutageDrainTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
            "{outOfOrderness: 5s, idleAfter: 1m}", "    allowedLateness: 10m\n");

    private record Msg(String id, Instant sent, Instant deliveredAt) { }

    @ParameterizedTest(name = "blip {0}, drained {1}, one every {2} s")
    @CsvSource({"false,newest,2", "true,newest,2", "true,1,2", "true,2,2", "false,newest,8", "true,newest,8", "false,3,8", "true,oldest,8"})
    void aWindowOpenAtTheOutageKeepsItsQueuedEventsInRevisionZero(boolean blip, String order, int every) throws Exception {
        run(blip, order, every);
    }

    private void run(boolean blip, String order, int every) throws Exception {
        List<Msg> msgs = new ArrayList<>();
        for (int s = 0; s < 100; s++) {
            Instant t = T0.plusSeconds(s);
            msgs.add(new Msg("p" + s, t, blip && s == 80 ? T0.plusSeconds(98) : t));
        }
        List<Integer> drain = new ArrayList<>();
        for (int s = 100; s < 140; s++) {
            drain.add(s);
        }
        if (order.equals("newest")) {
            Collections.reverse(drain);
        } else if (!order.equals("oldest")) {
            Collections.shuffle(drain, new Random(Long.parseLong(order)));
        }
        Instant resumed = T0.plusSeconds(150);
        for (int i = 0; i < drain.size(); i++) {
            msgs.add(new Msg("q" + drain.get(i), T0.plusSeconds(drain.get(i)), resumed.plusSeconds((long) every * i)));
        }
        for (int s = 150; s < 400; s++) {
            msgs.add(new Msg("n" + s, T0.plusSeconds(s), T0.plusSeconds(s)));
        }

        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingTimers timers = new RecordingTimers();
        FaninEngine engine = InMemoryEngines.of(YAML, new InMemoryWindowStore(4), emitter, timers, clock);
        RecordingSideOutput side = (RecordingSideOutput) engine.ports().sideOutput();
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);
        TimerService timerService = new TimerService(engine);
        Instant nextSweep = T0.plusSeconds(10);
        for (Instant now = T0; now.isBefore(T0.plus(Duration.ofMinutes(30))); now = now.plusSeconds(1)) {
            clock.set(now);
            List<InboundMessage> batch = new ArrayList<>();
            for (Msg m : msgs) {
                if (m.deliveredAt().equals(now)) {
                    batch.add(new InboundMessage(m.id(), InMemoryEngines.rawEvent("a", m.id(), m.sent()), 1, m.sent(), now, Map.of()));
                }
            }
            if (!batch.isEmpty()) {
                ingest.handle(batch);
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
                    + " seen=" + a.path("seen").asInt() + " closedAt=" + a.path("closedAt").asText());
        }
        assertThat(side.sideRecords()).isEmpty();
        assertThat(out).anyMatch(s -> s.startsWith("2026-12-07T10:01:00.000Z r0 WATERMARK seen=60 "))
                .noneMatch(s -> s.contains("LATE_CORRECTION"));
    }
}
