package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An ingest batch that runs out of its invocation's time stops taking windows and hands the rest back for redelivery,
 * with a reason, instead of being cut off by a timeout that reports nothing (SQS would then redeliver the whole batch,
 * and its redrive would dead-letter it without a reason). What it applied before stays applied, once.
 */
class IngestDeadlineTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant EVENT_TIME = NOW.minusSeconds(30);
    private static final Instant DEADLINE = NOW.plusMillis(1_500);

    private final TestClock clock = new TestClock(NOW);
    /** Each window write takes a second of the invocation's time. */
    private final FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 5m}"),
            InMemoryEngines.slowCreates(clock, window -> Duration.ofSeconds(1)),
            new RecordingEmitter(AggregateSchema::assertValid), new RecordingTimers(), clock);
    private final IngestService ingest = new IngestService(engine);

    @Test
    void theWindowsNotReachedByTheDeadlineAreHandedBackAndCountedOnceOnRedelivery() {
        BatchResult first = ingest.handle(batch(1), DEADLINE);

        // a at +0 s and b at +1 s start before the deadline (+1.5 s); c would start at +2 s.
        assertThat(first.eventsAccepted()).isEqualTo(2);
        assertThat(first.failedMessageIds()).containsExactly("m-c");

        BatchResult redelivered = ingest.handle(batch(2), Instant.MAX);

        assertThat(redelivered.failedMessageIds()).isEmpty();
        assertThat(redelivered.eventsAccepted()).isEqualTo(1);
        assertThat(redelivered.duplicates()).isEqualTo(2);
    }

    @Test
    void theStoredWatermarkMovesOnlyByTheEventsApplied() {
        List<InboundMessage> batch = List.of(
                InMemoryEngines.message("m-a", InMemoryEngines.rawEvent("a", "e-a", EVENT_TIME), NOW, 1),
                InMemoryEngines.message("m-b", InMemoryEngines.rawEvent("b", "e-b", EVENT_TIME.plusSeconds(1)), NOW, 1),
                InMemoryEngines.message("m-c", InMemoryEngines.rawEvent("c", "e-c", EVENT_TIME.plusSeconds(20)), NOW, 1));

        BatchResult r = ingest.handle(batch, DEADLINE);

        assertThat(r.failedMessageIds()).containsExactly("m-c");
        assertThat(engine.ports().watermarks().read("p").maxEventTime()).as("not c's, handed back")
                .isEqualTo(EVENT_TIME.plusSeconds(1));
    }

    /**
     * A batch that applied none of its events still arrived: the idle advance, which starts {@code idleAfter} after
     * the last arrival, must not close the windows of events that are being retried.
     */
    @Test
    void aBatchHandedBackWhollyIsStillAnArrival() {
        ingest.handle(batch(1).subList(0, 1), Instant.MAX);
        clock.advance(Duration.ofMinutes(4));
        Instant retried = clock.instant();

        BatchResult r = ingest.handle(List.of(InMemoryEngines.message("m-late", InMemoryEngines.rawEvent("b", "e-b", EVENT_TIME.plusSeconds(20)),
                retried, 2)), retried);

        assertThat(r.failedMessageIds()).containsExactly("m-late");
        assertThat(engine.ports().watermarks().read("p").lastArrival()).isAfterOrEqualTo(retried);
        assertThat(engine.ports().watermarks().read("p").maxEventTime()).as("not the handed-back event's").isEqualTo(EVENT_TIME);
    }

    @Test
    void onItsLastDeliveryAMessageNotReachedIsDeadLetteredWithTheReason() {
        int last = engine.settings().maxReceiveCount();

        BatchResult r = ingest.handle(batch(last), DEADLINE);

        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(r.deadLettered()).isEqualTo(1);
        assertThat(((RecordingSideOutput) engine.ports().deadLetters()).deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.messageId()).isEqualTo("m-c");
            assertThat(d.code()).isEqualTo("RETRIES_EXHAUSTED");
            assertThat(d.reason()).startsWith("RETRIES_EXHAUSTED: INGEST_DEADLINE: ").contains("IngestTimeout", "IngestBatchSize");
        });
    }

    @Test
    void aDeadlineAlreadyPastHandsTheWholeBatchBack() {
        BatchResult r = ingest.handle(batch(1), NOW);

        assertThat(r.eventsAccepted()).isZero();
        assertThat(r.failedMessageIds()).containsExactlyInAnyOrder("m-a", "m-b", "m-c");
    }

    /**
     * Malformed messages are dead-lettered one send each: the sends stop at the deadline too, and the messages not
     * reached are handed back (each send went on before, past the invocation's time, and Lambda's timeout then
     * redelivered the whole batch, dead-lettering the first ones again). On its last delivery a message is sent
     * whatever the time, so that its reason goes with it.
     */
    @Test
    void deadLetterSendsStopAtTheDeadlineAndTheMessagesNotReachedAreHandedBack() {
        List<String> sent = new java.util.ArrayList<>();
        dev.fanin.core.port.DeadLetters slow = (id, body, attributes, code, reason) -> {
            clock.advance(Duration.ofSeconds(1));
            sent.add(id);
        };
        FaninEngine slowDeadLetters = new FaninEngine(engine.config(), new FaninPorts(new dev.fanin.core.memory.InMemoryWindowStore(4),
                new dev.fanin.core.memory.InMemoryWatermarkStore(), new RecordingEmitter(AggregateSchema::assertValid),
                new RecordingTimers(), new RecordingSideOutput(), slow, dev.fanin.core.port.Metrics.NONE), FaninSettings.defaults(), clock);
        List<InboundMessage> bad = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            bad.add(InMemoryEngines.message("bad-" + i, "not json " + i, NOW, i < 19 ? 1 : FaninSettings.defaults().maxReceiveCount()));
        }

        BatchResult r = new IngestService(slowDeadLetters).handle(bad, NOW.plusSeconds(5));

        assertThat(sent).hasSize(6).contains("bad-19");
        assertThat(r.deadLettered()).isEqualTo(6);
        assertThat(r.failedMessageIds()).hasSize(14).doesNotContain("bad-19");
        assertThat(clock.instant()).isEqualTo(NOW.plusSeconds(6));
    }

    /** One event for each of keys a, b and c (a window each), delivered for the {@code attempt}th time. */
    private static List<InboundMessage> batch(int attempt) {
        return List.of("a", "b", "c").stream()
                .map(k -> InMemoryEngines.message("m-" + k, InMemoryEngines.rawEvent(k, "e-" + k, EVENT_TIME), NOW, attempt))
                .toList();
    }
}
