package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A time window longer than its lifetime (a count closes it within the hour, its span is 60 days) takes on-time
 * events until its end + maxPast. Its items must outlast that: were they deleted at the retention counted from the
 * hard deadline, the next such event would open the window again and emit revision 0 of the same aggregate id a
 * second time, with other contents.
 */
class WindowOutlivesLifetimeTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: tumbling, size: 60d}")
            .replace("triggers: {maxLifetime: 10m}", "triggers: {count: 1, maxLifetime: 1h}");

    @Test
    void theRetentionCoversTheSpanPastTheLifetime() {
        PipelineConfig p = ConfigLoader.load(YAML, "test").pipeline("p").orElseThrow();

        // 7d maxPast + 5m maxFuture (the defaults) + 60d - 1h
        assertThat(p.effectiveRetention()).isEqualTo(Duration.ofDays(67).plusMinutes(5).minusHours(1));
        PipelineConfig shortWindow = ConfigLoader.load(InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}"), "test").pipeline("p").orElseThrow();
        assertThat(shortWindow.effectiveRetention()).isEqualTo(Duration.ofDays(7).plusMinutes(5));
    }

    @Test
    void anEventAfterTheRetentionFromTheDeadlineDoesNotOpenTheWindowAgain() {
        TestClock clock = new TestClock(NOW);
        InMemoryWindowStore store = new InMemoryWindowStore(4);
        RecordingEmitter emitter = new RecordingEmitter();
        FaninEngine engine = InMemoryEngines.of(YAML, store, emitter, new RecordingTimers(), clock);
        IngestService ingest = new IngestService(engine);

        ingest.handle(List.of(InMemoryEngines.message("m1", InMemoryEngines.rawEvent("a", "e1", NOW), NOW, 1)));
        clock.advance(Duration.ofDays(9));
        store.expire(clock.instant());
        Instant later = clock.instant();
        ingest.handle(List.of(InMemoryEngines.message("m2", InMemoryEngines.rawEvent("a", "e2", later.minusSeconds(60)), later, 1)));

        assertThat(emitter.emitted()).extracting(AggregateEmitter.Request::aggregateId).doesNotHaveDuplicates().hasSize(1);
        // Past the hard deadline and the lateness: too late for the closed window, as on the day after it closed.
        assertThat(((RecordingSideOutput) engine.ports().sideOutput()).sideRecords()).hasSize(1);
    }
}
