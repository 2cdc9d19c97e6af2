package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.window.WindowStatus;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A deployment lowers DueShards (8 to 2) while windows it listed in shards 2-7 are open and their timers are lost:
 * the scheduled runs of the new deployment read only its own shards, and its first run over every shard (hourly)
 * closes every one of them.
 */
class FewerDueShardsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final int BEFORE = 8;
    private static final int AFTER = 2;
    private static final int KEYS = 24;

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore memory = new InMemoryWindowStore(BEFORE);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);

    @Test
    void windowsListedInTheShardsRemovedStillClose() {
        FaninEngine before = engine(memory);
        new IngestService(before).handle(IntStream.range(0, KEYS).mapToObj(k -> InMemoryEngines.message("m" + k,
                InMemoryEngines.rawEvent("k" + k, "e" + k, T0), T0, 1)).toList());
        assertThat(memory.dueBuckets()).as("listed past the new shard count").anyMatch(b -> b.shard() >= AFTER);

        FaninEngine after = engine(new ForwardingWindowStore(memory) {
            @Override
            public int dueShards() {
                return AFTER;
            }
        });
        clock.set(T0.plus(Duration.ofMinutes(7)));
        for (int run = 0; run < 5; run++) {
            new SweepService(after).sweep(clock.instant().plusSeconds(50));
            clock.advance(Duration.ofMinutes(1));
        }
        int closedByScheduledRuns = emitter.emitted().size();
        new SweepService(after).sweepEveryShard(clock.instant().plusSeconds(50));

        assertThat(closedByScheduledRuns).as("closed by the scheduled runs: those listed in the shards kept").isLessThan(KEYS);
        assertThat(emitter.emitted()).as("every window emitted after one run over every shard").hasSize(KEYS);
        assertThat(memory.all()).allSatisfy(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
    }

    private FaninEngine engine(WindowStore store) {
        return InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 60s}"), store, emitter, (wakeup, now) -> {
            throw new IllegalStateException("timer queue unavailable");
        }, clock);
    }
}
