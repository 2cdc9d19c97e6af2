package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A batch whose function died after writing its windows but before sending their timers comes back from SQS with a
 * receive count of two and finds nothing new: its windows' timer chains get their message then, instead of waiting
 * for the sweeper (RELIABILITY.md, finding 6).
 */
class LostTimerRedeliveryTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private static InboundMessage message(String id, int receiveCount) {
        return InMemoryEngines.message("m-" + id, InMemoryEngines.rawEvent("k1", id, T0), T0, receiveCount);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"{type: session, gap: 30s}", "{type: tumbling, size: 60s}"})
    void aRedeliveredBatchThatChangesNothingGivesTheWindowsChainItsMessage(String window) {
        TestClock clock = new TestClock(T0);
        InMemoryWindowStore store = new InMemoryWindowStore(4);
        OutageTimers timers = new OutageTimers();
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline(window), store, new RecordingEmitter(AggregateSchema::assertValid), timers, clock);
        IngestService ingest = new IngestService(engine);

        // The first delivery writes the window; its timer is lost (the function "died" before the send went out).
        timers.down = true;
        assertThat(ingest.handle(List.of(message("e1", 1), message("e2", 1))).failedMessageIds()).isEmpty();
        WindowState written = engine.decode(store.all().get(0));
        assertThat(written.timer()).isNotNull();
        timers.down = false;

        // A producer's duplicate send (first delivery of another message) is not a redelivery: nothing is armed.
        clock.set(T0.plusSeconds(5));
        ingest.handle(List.of(InMemoryEngines.message("m-dup", message("e1", 1).body(), clock.instant(), 1)));
        assertThat(timers.sent.pending()).isEmpty();

        // SQS redelivers the batch: the events are duplicates, and the window's chain gets its message.
        clock.set(T0.plusSeconds(40));
        BatchResult again = ingest.handle(List.of(message("e1", 2), message("e2", 2)));
        assertThat(again.duplicates()).isEqualTo(2);
        assertThat(timers.sent.pending()).singleElement().satisfies(t -> {
            WindowTimers.Wakeup w = t.wakeup();
            assertThat(w.ref()).isEqualTo(written.ref());
            assertThat(w.chain()).isEqualTo(written.timer().id());
            assertThat(w.dueAt()).isAfter(clock.instant());
        });
        assertThat(engine.decode(store.all().get(0)).version()).as("nothing written").isEqualTo(written.version());
    }
}
