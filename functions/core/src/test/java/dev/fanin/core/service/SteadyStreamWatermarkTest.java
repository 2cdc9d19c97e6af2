package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A steady stream, one event a second, no backlog: every minute's window closes by the watermark within seconds of
 * its end. Before, a message counted as behind whenever it reached fanin more than outOfOrderness after its sending,
 * so an outOfOrderness of 0 (any delivery takes some milliseconds), or a poller batching window longer than it,
 * made every message of the stream behind: one backlog episode for as long as the stream lasted, the watermark held
 * at its start, and no window closed before its maxLifetime.
 */
class SteadyStreamWatermarkTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "outOfOrderness {0}, out of the queue {1} ms after sending, held by the poller for batches of {2} s")
    @CsvSource({"0s, 500, 1", "5s, 50, 10", "2s, 200, 20"})
    void everyWindowOfASteadyStreamClosesByTheWatermark(String outOfOrderness, long queueMillis, int batchSeconds) throws Exception {
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingTimers timers = new RecordingTimers();
        String yaml = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}").replace("outOfOrderness: 0s", "outOfOrderness: " + outOfOrderness)
                .replace("maxLifetime: 10m", "maxLifetime: 30m");
        FaninEngine engine = InMemoryEngines.of(yaml, new InMemoryWindowStore(4), emitter, timers, clock);
        IngestService ingest = new IngestService(engine);
        TimerService timerService = new TimerService(engine);
        int n = 0;
        for (Instant now = T0; now.isBefore(T0.plus(Duration.ofMinutes(10))); now = now.plusSeconds(batchSeconds)) {
            clock.set(now);
            List<InboundMessage> batch = new ArrayList<>();
            for (int i = batchSeconds; i > 0; i--) {
                Instant sent = now.minusSeconds(i);
                Instant leftQueue = sent.plusMillis(queueMillis);
                batch.add(new InboundMessage("m" + n, InMemoryEngines.rawEvent("k", "e" + n++, sent), 1, sent, now, Map.of(), null,
                        batchSeconds > 1 ? leftQueue : null));
            }
            ingest.handle(batch);
            timers.takeDue(now).forEach(t -> timerService.fire(t.wakeup()));
        }

        List<String> closes = new ArrayList<>();
        for (var e : emitter.emitted()) {
            var aggregate = JSON.readTree(e.detailJson());
            Duration afterEnd = Duration.between(Instant.parse(aggregate.path("window").path("end").asText()),
                    Instant.parse(aggregate.path("closedAt").asText()));
            closes.add(aggregate.path("closeReason").asText() + (afterEnd.compareTo(Duration.ofSeconds(batchSeconds + 35)) <= 0 ? " in time" : " late"));
        }
        assertThat(closes).as("the 9 windows that ended before the last minute").hasSizeGreaterThanOrEqualTo(8)
                .allMatch(c -> c.equals("WATERMARK in time"));
    }
}
