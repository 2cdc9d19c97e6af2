package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Timer messages through the timer service: chains continue without writes, and survive a failed send. */
class TimerServiceTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final OutageTimers timers = new OutageTimers();
    private final FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 30s}"), store, emitter,
            timers, clock);
    private final IngestService ingest = new IngestService(engine);
    private final TimerService timerService = new TimerService(engine);

    private void event(String id, Instant at) {
        clock.set(at);
        assertThat(ingest.handle(List.of(InMemoryEngines.message(id, InMemoryEngines.rawEvent("k1", id, at), at, 1)))
                .failedMessageIds()).isEmpty();
    }

    private StoredWindow window() {
        return store.all().get(0);
    }

    @Test
    void aTimerWhoseNextMessageCannotBeSentIsRedeliveredAndTheChainGoesOn() {
        event("e1", T0);
        event("e2", T0.plusSeconds(20));
        List<RecordingTimers.Timer> armed = timers.sent.pending();
        assertThat(armed).as("one chain, started by the create; the extension armed nothing").hasSize(1);
        WindowTimers.Wakeup first = armed.get(0).wakeup();
        long version = window().version();

        // The first message comes at T0+30 s; the session now ends at T0+50 s. SQS is down: the next message is not sent.
        clock.set(first.dueAt());
        timers.down = true;
        assertThat(timerService.fireAll(List.of(first))).as("handed back to SQS").containsExactly(first);
        assertThat(window().version()).as("nothing written").isEqualTo(version);

        // Redelivered once SQS is back: the chain goes on, still without a write.
        timers.down = false;
        clock.advance(Duration.ofSeconds(5));
        assertThat(timerService.fireAll(List.of(first))).isEmpty();
        assertThat(window().version()).isEqualTo(version);
        List<RecordingTimers.Timer> next = timers.sent.pending();
        assertThat(next).hasSize(2);
        WindowTimers.Wakeup second = next.get(1).wakeup();
        assertThat(second.chain()).isEqualTo(first.chain());
        // The session ends at T0+50 s and the watermark stands at T0+20 s (no events since): 30 s from now.
        assertThat(second.dueAt()).isEqualTo(clock.instant().plusSeconds(30));

        // The chain goes on, writing nothing, until the idle watermark closes the window; then it ends.
        WindowTimers.Wakeup message = second;
        int hops = 0;
        while (emitter.emitted().isEmpty()) {
            assertThat(hops++).as("hops before the close").isLessThan(50);
            assertThat(window().version()).isEqualTo(version);
            clock.set(message.dueAt());
            int before = timers.sent.pending().size();
            assertThat(timerService.fireAll(List.of(message))).isEmpty();
            List<RecordingTimers.Timer> sent = timers.sent.pending();
            message = sent.size() > before ? sent.get(sent.size() - 1).wakeup() : null;
            assertThat(message == null).as("a message is sent exactly while the window stays open").isEqualTo(!emitter.emitted().isEmpty());
        }
        assertThat(emitter.emitted()).hasSize(1);
    }

    @Test
    void aStaleMessageArmsNothingAndIsDone() {
        event("e1", T0);
        WindowTimers.Wakeup live = timers.sent.pending().get(0).wakeup();
        WindowTimers.Wakeup stale = new WindowTimers.Wakeup(live.ref(), live.dueAt(), live.chain() + 7);
        event("e2", T0.plusSeconds(20));

        clock.set(live.dueAt());
        timers.down = true;
        assertThat(timerService.fireAll(List.of(stale))).as("nothing to send, nothing to retry").isEmpty();
        assertThat(timers.sent.pending()).hasSize(1);
    }
}
