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
 * An event too late for the two sessions it would bridge merges nothing, and its verdict is recorded in the earlier
 * one: its original, delivered later with a watermark capped at its own send time, meets it there and is too late as
 * well (a review reproduced it counted: the verdict was recorded in neither session).
 */
class TooLateBridgeTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: session, gap: 1m}", "30m",
            "{outOfOrderness: 10s, idleAfter: 5m}", "    allowedLateness: 1m\n");

    private final TestClock clock = new TestClock(T0);

    @Test
    void theOriginalOfAnEventTooLateToBridgeTwoSessionsIsTooLateAsWell() {
        FaninEngine engine = InMemoryEngines.of(YAML, new InMemoryWindowStore(4), new RecordingEmitter(), new RecordingTimers(), clock);
        RecordingSideOutput side = (RecordingSideOutput) engine.ports().sideOutput();
        IngestService ingest = new IngestService(engine);
        deliver(ingest, "m0", "a", "e0", T0, T0, 1);                                    // [10:00:00, 10:01:00)
        deliver(ingest, "m2", "a", "e2", T0.plusSeconds(90), T0.plusSeconds(90), 1);   // [10:01:30, 10:02:30)
        Instant later = T0.plus(Duration.ofMinutes(4));
        deliver(ingest, "mx", "b", "x", later, later, 1);                               // the watermark past both + 1m

        BatchResult resend = deliver(ingest, "r1", "a", "e1", T0.plusSeconds(45), later.plusSeconds(5), 1);
        BatchResult original = deliver(ingest, "o1", "a", "e1", T0.plusSeconds(45), T0.plusSeconds(46), 2);

        assertThat(resend.tooLate()).isEqualTo(1);
        assertThat(original.tooLate()).as("the original meets the verdict").isEqualTo(1);
        assertThat(original.eventsAccepted()).isZero();
        assertThat(side.sideRecords().stream().filter(r -> r.json().contains("\"eventId\":\"e1\"")).count()).isEqualTo(2);
    }

    private BatchResult deliver(IngestService ingest, String messageId, String key, String eventId, Instant eventTime, Instant sent,
                                int attempt) {
        clock.set(max(clock.instant(), sent).plusSeconds(1));
        return ingest.handle(List.of(new InboundMessage(messageId, InMemoryEngines.rawEvent(key, eventId, eventTime), attempt, sent,
                clock.instant(), Map.of())));
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
