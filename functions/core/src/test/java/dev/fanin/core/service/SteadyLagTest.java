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
 * A queue that stays behind: for 30 minutes every message waits {@code lag} in the queue (over outOfOrderness + 1 s,
 * so each is evidence of a backlog), one event a second. Every minute's window must still close by the watermark, in
 * revision 0 with all its events, within the lag plus twice idleAfter of its end. Before, the backlog's frontier
 * stayed at the oldest behind message for as long as behind messages kept coming: the watermark was held at the
 * stream's start and no window closed before its maxLifetime.
 */
class SteadyLagTest {

    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration IDLE_AFTER = Duration.ofMinutes(1);

    @ParameterizedTest(name = "every message {0} s in the queue")
    @ValueSource(ints = {7, 20, 45})
    void everyWindowClosesByTheWatermarkWhileTheQueueStaysBehind(int lagSeconds) throws Exception {
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingTimers timers = new RecordingTimers();
        String yaml = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "2h", "{outOfOrderness: 5s, idleAfter: 1m}", "");
        FaninEngine engine = InMemoryEngines.of(yaml, new InMemoryWindowStore(4), emitter, timers, clock);
        RecordingSideOutput side = (RecordingSideOutput) engine.ports().sideOutput();
        IngestService ingest = new IngestService(engine);
        TimerService timerService = new TimerService(engine);
        SweepService sweep = new SweepService(engine);
        Instant end = T0.plus(Duration.ofMinutes(30));
        int n = 0;
        for (Instant now = T0; now.isBefore(end); now = now.plusSeconds(1)) {
            clock.set(now);
            Instant sent = now.minusSeconds(lagSeconds);
            ingest.handle(List.of(new InboundMessage("m" + n, InMemoryEngines.rawEvent("k", "e" + n++, sent), 1, sent, now, Map.of(), null, now)));
            timers.takeDue(now).forEach(t -> timerService.fire(t.wakeup()));
            if (now.getEpochSecond() % 60 == 0) {
                sweep.sweep(now.plusSeconds(55));
            }
        }

        List<String> closes = new ArrayList<>();
        for (var e : emitter.emitted()) {
            JsonNode a = JSON.readTree(e.detailJson());
            Duration afterEnd = Duration.between(Instant.parse(a.path("window").path("end").asText()), Instant.parse(a.path("closedAt").asText()));
            boolean inTime = afterEnd.compareTo(Duration.ofSeconds(lagSeconds).plus(IDLE_AFTER.multipliedBy(2)).plusSeconds(10)) <= 0;
            closes.add("r" + a.path("revision").asInt() + " " + a.path("closeReason").asText() + " complete=" + a.path("complete").asBoolean()
                    + " seen=" + a.path("seen").asInt() + (inTime ? " in time" : " late by " + afterEnd));
        }
        assertThat(closes).as("the windows that ended at least lag + 2 idleAfter before the run's end")
                .hasSizeGreaterThanOrEqualTo(30 - 3 - (lagSeconds + 59) / 60)
                .allMatch(c -> c.startsWith("r0 WATERMARK complete=true seen=") && c.endsWith(" in time"));
        assertThat(closes.subList(1, closes.size())).as("every window after the first (which began with the stream) took its minute's 60 events")
                .allMatch(c -> c.contains(" seen=60 "));
        assertThat(side.sideRecords()).isEmpty();
    }
}
