package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One producer whose clock runs ahead (an event time 2 minutes after its send, inside the default
 * {@code eventTime.maxFuture} of 5 minutes, far beyond {@code outOfOrderness}) must not move the pipeline's watermark
 * past real time (a review): it did, so another key's window fired 30 s before its end and that key's on-time events
 * after it went to the side output as too late. The event itself still counts in its own window.
 */
class FutureDatedEventTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
            "{outOfOrderness: 5s, idleAfter: 1m}", "");

    private final TestClock clock = new TestClock(T0);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final RecordingTimers timers = new RecordingTimers();
    private final FaninEngine engine = InMemoryEngines.of(YAML, new InMemoryWindowStore(4), emitter, timers, clock);
    private final IngestService ingest = new IngestService(engine);

    @Test
    void anEventTimeAheadOfItsArrivalMovesTheWatermarkNoFurtherThanTheArrival() {
        send("a1", "a", T0.plusSeconds(9), T0.plusSeconds(10));
        send("b1", "b", T0.plusSeconds(140), T0.plusSeconds(20));

        assertThat(engine.watermark("p", Long.MIN_VALUE, T0.plusSeconds(21)))
                .isEqualTo(T0.plusSeconds(20).minusSeconds(5).toEpochMilli());

        clock.set(T0.plusSeconds(30));
        new SweepService(engine).sweepEveryShard(Instant.MAX);
        timers.takeDue(T0.plusSeconds(30)).forEach(t -> new TimerService(engine).fire(t.wakeup()));
        send("a2", "a", T0.plusSeconds(40), T0.plusSeconds(41));
        send("a3", "a", T0.plusSeconds(55), T0.plusSeconds(56));

        assertThat(emitter.emitted()).as("key a's window [T0, T0+60 s) is not over at T0+56 s").isEmpty();
        assertThat(((RecordingSideOutput) engine.ports().sideOutput()).sideRecords()).as("events sent 1 s after they happened").isEmpty();

        clock.set(T0.plusSeconds(300));
        new SweepService(engine).sweepEveryShard(Instant.MAX);
        assertThat(emitter.emitted()).extracting(r -> counts(r.detailJson())).as("a: its 3 events; b: its own")
                .containsExactlyInAnyOrder(3, 1);
    }

    private static int counts(String detail) {
        try {
            return new ObjectMapper().readTree(detail).path("aggregations").path("count").asInt();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void send(String id, String key, Instant eventTime, Instant sent) {
        clock.set(sent);
        InboundMessage m = InMemoryEngines.message(id, InMemoryEngines.rawEvent(key, id, eventTime), sent, 1);
        ingest.handle(List.of(m));
    }
}
