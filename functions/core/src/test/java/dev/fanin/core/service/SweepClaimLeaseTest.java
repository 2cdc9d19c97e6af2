package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A sweep emits its claims before half their lease is gone, as an ingest batch does (IngestClaimLeaseTest), not only
 * once ten have gathered or its shards are done: a slow run (a throttled table) met the window again in a later
 * listing past the lease, took its own claim over and emitted the revision twice, with no fault at all.
 */
class SweepClaimLeaseTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:10Z");
    private final TestClock clock = new TestClock(T0);

    @Test
    void aSlowSweepEmitsItsClaimBeforeItsLeaseEndsAndSoOnlyOnce() {
        InMemoryWindowStore memory = new InMemoryWindowStore(1);
        ForwardingWindowStore slowReads = new ForwardingWindowStore(memory) {
            @Override
            public Optional<StoredWindow> load(WindowRef ref) {
                clock.advance(Duration.ofMillis(400)); // a throttled table: each read takes 0.4 s of retries
                return super.load(ref);
            }
        };
        RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}"), slowReads, emitter,
                new RecordingTimers(), clock);
        new IngestService(engine).handle(List.of(InMemoryEngines.message("m-a", InMemoryEngines.rawEvent("a", "e-a", T0), T0, 1)));
        WindowRef window = memory.all().get(0).ref();
        Instant sweepAt = Instant.parse("2026-11-29T10:07:00Z");
        for (int i = 0; i < 110; i++) { // listings of windows that are not there: 44 s of reads after the claim
            memory.addDue("p", sweepAt.minusSeconds(60), List.of(new WindowRef("p", "other" + i, WindowRef.timeWindowId(0))),
                    sweepAt.plus(Duration.ofDays(1)));
        }
        memory.addDue("p", sweepAt.plusSeconds(35), List.of(window), sweepAt.plus(Duration.ofDays(1))); // listed twice, as is normal
        clock.set(sweepAt);

        new SweepService(engine).sweep(sweepAt.plusSeconds(50));

        assertThat(emitter.emitted()).extracting(AggregateEmitter.Request::aggregateId).containsExactly(window.aggregateId(0));
    }
}
