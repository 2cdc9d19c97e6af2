package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A sweep run visits an entry once for all of its listings that fell due by the time that visit started: the visit
 * read every write those listings cover. A listing that falls due after the visit started is visited again, and the
 * window stays listed either way. Timers are lost throughout, so only the sweeper reaches the window.
 */
class SweepRevisitTest {

    private static final int SHARDS = 2;
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore memory = new InMemoryWindowStore(SHARDS);
    private final CountingLoads store = new CountingLoads(memory);
    private final FaninEngine engine = engine();
    private final WindowRef window = new WindowRef("p", "k", WindowRef.timeWindowId(T0.toEpochMilli()));

    @Test
    void listingsDueBeforeTheVisitAreVisitedOnce() {
        ingestOneEvent();
        memory.addDue("p", T0.plusSeconds(1), List.of(window), T0.plus(Duration.ofDays(1)));
        clock.set(sweepStartingAtTheShardOf(window));

        new SweepService(engine).sweep(clock.instant().plusSeconds(50));

        assertThat(store.loads(window)).as("two listings, one read").isEqualTo(1);
        assertThat(listed()).as("the open window is listed again").contains(window);
    }

    @Test
    void aListingDueAfterTheVisitStartedIsVisitedAgain() {
        ingestOneEvent();
        clock.set(sweepStartingAtTheShardOf(window));
        WindowRef other = refInTheOtherShard();
        store.onFirstLoad = () -> {
            clock.advance(Duration.ofSeconds(5));
            // Falls due after the visit started; listed first by a window of the shard swept next.
            memory.addDue("p", clock.instant(), List.of(other, window), T0.plus(Duration.ofDays(1)));
        };

        new SweepService(engine).sweep(clock.instant().plusSeconds(50));

        assertThat(store.loads(window)).isEqualTo(2);
        assertThat(listed()).contains(window);
    }

    private void ingestOneEvent() {
        new IngestService(engine).handle(List.of(InMemoryEngines.message("m1",
                InMemoryEngines.rawEvent(window.key(), "e1", T0), T0, 1)));
        assertThat(memory.load(window)).isPresent();
        store.loaded.clear();
    }

    /** A time past every listing so far, in a minute whose run starts with the shard of {@code ref}. */
    private Instant sweepStartingAtTheShardOf(WindowRef ref) {
        Instant at = T0.plus(Duration.ofMinutes(2));
        while (Math.floorMod(at.getEpochSecond() / 60, (long) SHARDS) != shardOf(ref)) {
            at = at.plus(Duration.ofMinutes(1));
        }
        return at;
    }

    private WindowRef refInTheOtherShard() {
        for (int k = 0; k < 100; k++) {
            WindowRef ref = new WindowRef("p", "other" + k, WindowRef.timeWindowId(T0.toEpochMilli()));
            if (shardOf(ref) != shardOf(window)) {
                return ref;
            }
        }
        throw new AssertionError("no key in the other shard");
    }

    private static int shardOf(WindowRef ref) {
        InMemoryWindowStore scratch = new InMemoryWindowStore(SHARDS);
        scratch.addDue("p", T0, List.of(ref), T0);
        return scratch.dueBuckets().get(0).shard();
    }

    private Set<WindowRef> listed() {
        Set<WindowRef> listed = new HashSet<>();
        memory.dueBuckets().forEach(b -> listed.addAll(b.entries()));
        return listed;
    }

    private FaninEngine engine() {
        RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
        return InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 5m}"), store, emitter, (wakeup, now) -> {
            throw new IllegalStateException("timer queue unavailable");
        }, clock);
    }

    /** The store, counting the loads of each window since the ingest; runs {@code onFirstLoad} at the first. */
    private static final class CountingLoads extends ForwardingWindowStore {
        final List<WindowRef> loaded = new ArrayList<>();
        Runnable onFirstLoad = () -> { };

        CountingLoads(InMemoryWindowStore memory) {
            super(memory);
        }

        @Override
        public Optional<StoredWindow> load(WindowRef ref) {
            loaded.add(ref);
            if (loaded.size() == 1) {
                onFirstLoad.run();
            }
            return super.load(ref);
        }

        long loads(WindowRef ref) {
            return loaded.stream().filter(ref::equals).count();
        }
    }
}
