package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WindowStore;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The sweeper lists windows that fall due together (every key's window of a tumbling pipeline) in several buckets, so
 * they sit in several shards and the run's shard threads share them (SweepPlan.RELISTED_PER_BUCKET); before, one
 * bucket in one shard held them all and one thread visited them alone, whatever DueShards and SweepParallelism said.
 */
class RelistingSpreadTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final int SHARDS = 16;
    private static final int BATCHES = 50;
    private static final int KEYS_PER_BATCH = 20;

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore memory = new InMemoryWindowStore(SHARDS);

    private FaninEngine engine(FaninSettings settings) {
        RecordingSideOutput side = new RecordingSideOutput();
        return new FaninEngine(ConfigLoader.load(InMemoryEngines.rawPipeline("{type: tumbling, size: 10m}", "1h",
                "{outOfOrderness: 0s, idleAfter: 5m}", ""), "test"),
                new FaninPorts(memory, new InMemoryWatermarkStore(), new RecordingEmitter(), (wakeup, now) -> { }, side, side, Metrics.NONE),
                settings, clock);
    }

    private void ingestManyKeys(FaninEngine engine) {
        clock.set(T0.plus(Duration.ofMinutes(1)));
        for (int b = 0; b < BATCHES; b++) {
            List<InboundMessage> batch = new ArrayList<>();
            for (int k = 0; k < KEYS_PER_BATCH; k++) {
                String key = "k" + b + "-" + k;
                batch.add(InMemoryEngines.message("m" + key, InMemoryEngines.rawEvent(key, "e" + key, clock.instant()), clock.instant(), 1));
            }
            new IngestService(engine).handle(batch);
        }
    }

    @Test
    void windowsDueTogetherAreRelistedOverSeveralShards() {
        FaninEngine engine = engine(FaninSettings.defaults());
        ingestManyKeys(engine);
        Set<Integer> ingestShards = memory.dueBuckets().stream().map(WindowStore.DueBucket::shard).collect(Collectors.toSet());
        assertThat(ingestShards).as("the ingest listings are spread").hasSizeGreaterThan(SHARDS / 2);

        clock.set(T0.plus(Duration.ofMinutes(2)));
        new SweepService(engine).sweep(clock.instant().plusSeconds(50));

        int relisted = memory.dueBuckets().stream().mapToInt(b -> b.entries().size()).sum();
        assertThat(relisted).as("every window is open and listed again at its due time").isEqualTo(BATCHES * KEYS_PER_BATCH);
        assertThat(memory.dueBuckets()).as("buckets of at most 100").allSatisfy(b -> assertThat(b.entries()).hasSizeLessThanOrEqualTo(100));
        assertThat(memory.dueBuckets().stream().map(WindowStore.DueBucket::shard).collect(Collectors.toSet()))
                .as("1,000 windows due in the same 10 s step, listed again for the sweeper: shards they sit in").hasSizeGreaterThanOrEqualTo(5);
    }
}
