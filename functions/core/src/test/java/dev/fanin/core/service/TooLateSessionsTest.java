package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A too-late verdict of a session pipeline is kept where any later copy of the event comes: in the session that holds
 * the event's time, or else in the key's live item. Each case is a producer's late resend judged too late, then its
 * original, sent on time and delivered later with a watermark capped at its own send time, which must meet the
 * verdict instead of being counted (the first case found by the outages simulation, seeds 29, 41 and 56; the others
 * by reviews, each counted before).
 */
class TooLateSessionsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant LATER = T0.plus(Duration.ofMinutes(4));
    private static final String YAML = InMemoryEngines.rawPipeline("{type: session, gap: 1m}", "30m",
            "{outOfOrderness: 10s, idleAfter: 5m}", "    allowedLateness: 1m\n");

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final FaninEngine engine = InMemoryEngines.of(YAML, store, new RecordingEmitter(), new RecordingTimers(), clock);
    private final IngestService ingest = new IngestService(engine);

    @Test
    void anEventNoSessionHeldIsTooLateInEveryLaterCopy() {
        deliver(message("mx", "b", "x", LATER, LATER, 1));                              // the watermark at 10:03:50

        assertResendThenOriginalTooLate("e1", T0);
    }

    @Test
    void anEventTooLateToBridgeTwoSessionsIsTooLateInEveryLaterCopy() {
        sessionsAtTenAndTenOhOneThirty();

        assertResendThenOriginalTooLate("e1", T0.plusSeconds(45));
    }

    @Test
    void anEventTooLateToExtendASessionBackwardsIsTooLateInEveryLaterCopy() {
        deliver(message("m0", "a", "e0", T0, T0, 1));                                   // [10:00:00, 10:01:00)
        deliver(message("mx", "b", "x", LATER, LATER, 1));
        Instant before = T0.minusSeconds(30);                                           // its [09:59:30, 10:00:30) reaches it

        assertResendThenOriginalTooLate("e1", before);
    }

    @Test
    void anEventInsideASessionBatchedWithABridgeIsTooLateInEveryLaterCopy() {
        sessionsAtTenAndTenOhOneThirty();
        // e1 (10:00:45) bridges both sessions; e3 (10:01:40) lies inside the second and bridges nothing.
        BatchResult resends = deliver(message("r1", "a", "e1", T0.plusSeconds(45), LATER.plusSeconds(5), 1),
                message("r3", "a", "e3", T0.plusSeconds(100), LATER.plusSeconds(5), 1));
        BatchResult original = deliver(message("o3", "a", "e3", T0.plusSeconds(100), T0.plusSeconds(101), 2));

        assertThat(resends.tooLate()).isEqualTo(2);
        assertTooLateTwice(resends, original, "e3");
    }

    /**
     * A verdict is forgotten when a session opened with it would have expired, and leaves with the next write (a
     * review: it stayed, rewritten with every write of an active key's live item).
     */
    @Test
    void aVerdictPastItsTimeIsForgottenAndLeavesTheLiveItemWithItsNextWrite() {
        deliver(message("mx", "b", "x", LATER, LATER, 1));
        deliver(message("r1", "a", "e1", T0, LATER.plusSeconds(5), 1));
        Instant forgetAt = store.loadLive("p", "a").tooLate().values().iterator().next();
        clock.set(forgetAt);

        BatchResult original = deliver(message("o1", "a", "e1", T0, T0.plusSeconds(1), 2));

        assertThat(original.eventsAccepted()).as("forgotten, as its session would have expired").isEqualTo(1);
        assertThat(store.loadLive("p", "a").sessions()).as("written").isNotEmpty();
        assertThat(store.loadLive("p", "a").tooLate()).isEmpty();
    }

    /** [10:00:00, 10:01:00) and [10:01:30, 10:02:30), then another key takes the watermark past both + 1m. */
    private void sessionsAtTenAndTenOhOneThirty() {
        deliver(message("m0", "a", "e0", T0, T0, 1));
        deliver(message("m2", "a", "e2", T0.plusSeconds(90), T0.plusSeconds(90), 1));
        deliver(message("mx", "b", "x", LATER, LATER, 1));
    }

    /**
     * The event's late resend (sent after the watermark moved on), then its original, sent on time and delivered again
     * with a watermark capped at that: both too late, neither counted.
     */
    private void assertResendThenOriginalTooLate(String eventId, Instant eventTime) {
        BatchResult resend = deliver(message("r1", "a", eventId, eventTime, LATER.plusSeconds(5), 1));
        BatchResult original = deliver(message("o1", "a", eventId, eventTime, eventTime.plusSeconds(1), 2));
        assertTooLateTwice(resend, original, eventId);
    }

    private void assertTooLateTwice(BatchResult resend, BatchResult original, String eventId) {
        RecordingSideOutput side = (RecordingSideOutput) engine.ports().sideOutput();
        assertThat(resend.tooLate()).as("the resend too late").isPositive();
        assertThat(original.eventsAccepted()).as("the original not counted").isZero();
        assertThat(original.tooLate()).as("the original meets the verdict").isEqualTo(1);
        assertThat(side.sideRecords().stream().filter(r -> r.json().contains("\"eventId\":\"" + eventId + "\"")).count())
                .as("each copy reported").isEqualTo(2);
    }

    private InboundMessage message(String messageId, String key, String eventId, Instant eventTime, Instant sent, int attempt) {
        return new InboundMessage(messageId, InMemoryEngines.rawEvent(key, eventId, eventTime), attempt, sent, sent, Map.of());
    }

    /** Delivers {@code messages} as one batch, received a second after the latest was sent (or the clock, if later). */
    private BatchResult deliver(InboundMessage... messages) {
        Instant sent = List.of(messages).stream().map(InboundMessage::sentTime).max(Instant::compareTo).orElseThrow();
        clock.set((clock.instant().isAfter(sent) ? clock.instant() : sent).plusSeconds(1));
        return ingest.handle(List.of(messages).stream().map(m -> new InboundMessage(m.messageId(), m.body(), m.attempt(), m.sentTime(),
                clock.instant(), Map.of())).toList());
    }
}
