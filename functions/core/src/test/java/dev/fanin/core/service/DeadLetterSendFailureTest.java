package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.DeadLetters;
import dev.fanin.core.port.Metrics;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A malformed message whose dead letter cannot be sent on its last delivery (the queue throttled for a moment) is
 * dead-lettered once more with both reasons, why it was refused and why it was retried, never with only a bare
 * RETRIES_EXHAUSTED that hides what was wrong with it.
 */
class DeadLetterSendFailureTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void aMalformedMessageWhoseDeadLetterFailedOnItsLastDeliveryKeepsItsReason() {
        RecordingSideOutput recorded = new RecordingSideOutput();
        int[] sends = {0};
        DeadLetters failingOnce = (id, body, attributes, code, reason) -> {
            if (sends[0]++ == 0) {
                throw new IllegalStateException("throttled");
            }
            recorded.send(id, body, attributes, code, reason);
        };
        FaninEngine engine = new FaninEngine(ConfigLoader.load(InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}"), "test"),
                new FaninPorts(new InMemoryWindowStore(4), new InMemoryWatermarkStore(), new RecordingEmitter(), new RecordingTimers(),
                        recorded, failingOnce, Metrics.NONE), FaninSettings.defaults(), new TestClock(NOW));
        int last = engine.settings().maxReceiveCount();

        BatchResult r = new IngestService(engine).handle(List.of(InMemoryEngines.message("bad", "{\"k\":", NOW, last)));

        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(recorded.deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("MALFORMED_JSON,RETRIES_EXHAUSTED");
            assertThat(d.reason()).startsWith("MALFORMED_JSON: ").contains("RETRIES_EXHAUSTED: its dead letter could not be sent: throttled");
        });
    }
}
