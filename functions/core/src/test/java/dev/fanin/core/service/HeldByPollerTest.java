package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A first delivery received by the event source at once, then held (a throttled invoke retried by the poller until the
 * visibility timeout, a cold start): attempt 1, ApproximateFirstReceiveTimestamp early. Meanwhile another invocation
 * advanced the watermark and its window closed. The held event was sent 0.5 s after it happened (on time by the
 * watermark's assumption): its own batch waits for it, so it is a correction of the closed window, never the side
 * output (it went there when the batch judged it by its wait in the queue alone).
 */
class HeldByPollerTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
            "{outOfOrderness: 5s, idleAfter: 1m}", "");

    private static String body(String id, Instant t) {
        return "{\"k\":\"a\",\"id\":\"" + id + "\",\"t\":" + t.toEpochMilli() + "}";
    }

    @ParameterizedTest(name = "first receive known: {0}")
    @ValueSource(booleans = {false, true})
    void anOnTimeEventHeldByThePollerIsNotSentToTheSideOutput(boolean firstReceiveKnown) {
        TestClock clock = new TestClock(T0);
        RecordingTimers timers = new RecordingTimers();
        RecordingEmitter emitter = new RecordingEmitter();
        FaninEngine engine = InMemoryEngines.of(YAML, new InMemoryWindowStore(4), emitter, timers, clock);
        RecordingSideOutput side = (RecordingSideOutput) engine.ports().sideOutput();
        IngestService ingest = new IngestService(engine);
        TimerService timerService = new TimerService(engine);
        Instant end = T0.plusSeconds(60);
        // an earlier event opens window [T0, T0+60s)
        clock.set(end.minusSeconds(20));
        ingest.handle(List.of(new InboundMessage("m0", body("m0", end.minusSeconds(21)), 1, end.minusSeconds(20).minusMillis(500),
                end.minusSeconds(20), Map.of(), null, end.minusSeconds(20).minusMillis(400))));
        // held: sent end-0.5s (event end-1s), received by a poller at once, invoked only 30 s later
        Instant sentHeld = end.minusMillis(500);
        // meanwhile another poller delivers newer messages promptly
        Instant now = end.plusSeconds(15);
        clock.set(now);
        ingest.handle(List.of(new InboundMessage("m2", body("m2", now.minusSeconds(1)), 1, now.minusMillis(500), now, Map.of(), null,
                now.minusMillis(400))));
        timers.takeDue(now).forEach(t -> timerService.fire(t.wakeup()));
        now = end.plusSeconds(30);
        clock.set(now);
        ingest.handle(List.of(new InboundMessage("held", body("held", end.minusSeconds(1)), 1, sentHeld, now, Map.of(), null,
                firstReceiveKnown ? sentHeld.plusMillis(50) : null)));
        assertThat(side.sideRecords()).as("an event sent 0.5 s after it happened, held 30 s by the poller").isEmpty();
        assertThat(emitter.emitted()).as("the window closed by the watermark before the held event came").hasSize(1);
    }
}
