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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * After three idle hours, an event sent an hour after it happened is too late, whether or not an unrelated message of
 * its batch waited 20 s in the queue: the backlog episode that message starts reaches back to the last arrival by at
 * most idleAfter, not to the three-hour-old one (which made the hour-late event on time).
 */
class IdleReachBackTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
            "{outOfOrderness: 10s, idleAfter: 5m}", "");

    private static InboundMessage msg(String id, String key, Instant eventTime, Instant sent, Instant delivered) {
        return new InboundMessage(id, "{\"k\":\"" + key + "\",\"id\":\"" + id + "\",\"t\":" + eventTime.toEpochMilli() + "}", 1, sent,
                delivered, Map.of());
    }

    @ParameterizedTest(name = "with a behind neighbour: {0}")
    @ValueSource(booleans = {false, true})
    void anHourLateEventIsTooLateAfterAnIdlePeriod(boolean behindNeighbour) {
        TestClock clock = new TestClock(T0);
        RecordingTimers timers = new RecordingTimers();
        FaninEngine engine = InMemoryEngines.of(YAML, new InMemoryWindowStore(4), new RecordingEmitter(), timers, clock);
        RecordingSideOutput side = (RecordingSideOutput) engine.ports().sideOutput();
        IngestService ingest = new IngestService(engine);
        ingest.handle(List.of(msg("e0", "a", T0, T0, T0.plusMillis(200))));
        Instant now = T0.plus(Duration.ofHours(3));
        clock.set(now);
        new SweepService(engine).sweep(now.plusSeconds(60));
        List<InboundMessage> batch = new ArrayList<>();
        batch.add(msg("fresh", "d", now.minusMillis(500), now.minusMillis(400), now)); // prompt
        batch.add(msg("old", "c", now.minus(Duration.ofHours(1)), now.minusSeconds(1), now)); // sent an hour after it happened
        if (behindNeighbour) {
            batch.add(msg("b", "b", now.minusSeconds(21), now.minusSeconds(20), now)); // waited 20 s in the queue (> 10 s)
        }
        ingest.handle(batch);
        assertThat(side.sideRecords()).as("the hour-late event goes to the side output").hasSize(1);
    }
}
