package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore.DueBucket;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the sweeper finds windows without an index: every window with a due time is listed by a due bucket at all times
 * (written before the windows, deleted only after the sweeper has listed again what is still due later), one bucket per
 * ingest batch that opens windows, due once the ingest invocation is surely over. Timers are lost here throughout, so
 * the sweeper alone closes every window.
 */
class DueBucketsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    /** The default ingest timeout (30 s) plus the margin for requests in flight. */
    private static final Duration LISTING_DELAY = Duration.ofSeconds(40);
    /** When the idle watermark (idle after 5 minutes) has passed the end of the minute [T0, T0+60 s). */
    private static final Duration IDLE_PAST_END = Duration.ofMinutes(7);

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore memory = new InMemoryWindowStore(4);
    private final FlakyStore store = new FlakyStore(memory);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 60s}"), store.memory, emitter,
            new LostTimers(), clock);
    private final FaninEngine flaky = new FaninEngine(engine.config(), new FaninPorts(store, engine.ports().watermarks(), emitter,
            new LostTimers(), engine.ports().sideOutput(), engine.ports().deadLetters(), engine.ports().metrics()), engine.settings(), clock);
    private final IngestService ingest = new IngestService(flaky);
    private final SweepService sweep = new SweepService(flaky);
    private final ExecutorService shardThreads = Executors.newFixedThreadPool(4);
    private int messages;

    @AfterEach
    void stopShardThreads() {
        shardThreads.shutdownNow();
    }

    @Test
    void aBatchOpeningTenWindowsWritesOneBucketDueWhenTheInvocationIsSurelyOver() {
        BatchResult r = ingest.handle(events(10, T0));

        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(memory.dueBucketWrites()).isEqualTo(1);
        assertThat(memory.dueBuckets()).singleElement().satisfies(b -> {
            assertThat(b.dueAt()).isEqualTo(T0.plus(LISTING_DELAY));
            assertThat(b.entries()).hasSize(10).containsAll(memory.all().stream().map(StoredWindow::ref).toList());
        });
    }

    @Test
    void aBatchThatOnlyAddsToListedWindowsWritesNoBucket() {
        ingest.handle(events(10, T0));
        clock.advance(Duration.ofSeconds(5));

        ingest.handle(events(10, T0.plusSeconds(5)));

        assertThat(memory.all()).hasSize(10);
        assertThat(memory.dueBucketWrites()).isEqualTo(1);
    }

    @Test
    void theSweeperListsAgainWhatIsDueLaterThenDeletesWhatItHandledAndClosesEveryWindowAlone() {
        ingest.handle(events(10, T0));
        clock.set(T0.plus(LISTING_DELAY));

        SweepReport early = sweep.sweep(clock.instant().plusSeconds(50));

        // The minute [10:00, 10:01) is next checked at 10:01 (stored when it was created): each window is listed again
        // there, in one bucket, and the first bucket is gone.
        assertThat(early.visited()).isEqualTo(10);
        assertThat(emitter.emitted()).isEmpty();
        List<DueBucket> relisted = memory.dueBuckets();
        assertThat(relisted).singleElement().satisfies(b -> {
            assertThat(b.dueAt()).isEqualTo(T0.plusSeconds(60));
            assertThat(b.entries()).hasSize(10);
        });

        // No more events: the watermark passes the minute's end by its idle advance (idle after 5 minutes).
        clock.set(T0.plus(IDLE_PAST_END));
        sweep.sweep(clock.instant().plusSeconds(50));

        assertThat(emitter.emitted()).hasSize(10);
        assertThat(memory.all()).allSatisfy(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
        assertThat(memory.dueBuckets()).as("nothing left to visit").isEmpty();
    }

    @Test
    void aCrashBetweenTheBucketAndTheWindowWritesLeavesAListingTheSweeperDrops() {
        store.failCreates = true;
        BatchResult r = ingest.handle(events(3, T0));
        assertThat(r.failedMessageIds()).as("retried by SQS").hasSize(3);
        assertThat(memory.all()).isEmpty();
        assertThat(memory.dueBuckets()).hasSize(1);

        clock.set(T0.plus(LISTING_DELAY));
        sweep.sweep(clock.instant().plusSeconds(50));

        assertThat(memory.dueBuckets()).isEmpty();
    }

    @Test
    void aWindowWriteNeverHappensBeforeItsListing() {
        store.failListings = true;
        BatchResult r = ingest.handle(events(3, T0));

        assertThat(r.failedMessageIds()).hasSize(3);
        assertThat(memory.all()).as("no window without a listing").isEmpty();
    }

    @Test
    void aSweepThatCannotListAgainKeepsItsBucketsForTheNextRun() {
        ingest.handle(events(3, T0));
        clock.set(T0.plus(LISTING_DELAY));
        store.failListings = true;

        sweep.sweep(clock.instant().plusSeconds(50));

        assertThat(memory.dueBuckets()).singleElement().satisfies(b -> assertThat(b.dueAt()).isEqualTo(T0.plus(LISTING_DELAY)));
        store.failListings = false;
        clock.set(T0.plus(IDLE_PAST_END));
        sweep.sweep(clock.instant().plusSeconds(50));
        assertThat(emitter.emitted()).hasSize(3);
    }

    @Test
    void aLateEventReopeningAClosedWindowListsItAgain() {
        ingest.handle(events(1, T0));
        clock.set(T0.plus(LISTING_DELAY));
        sweep.sweep(clock.instant().plusSeconds(50));
        clock.set(T0.plus(IDLE_PAST_END));
        sweep.sweep(clock.instant().plusSeconds(50));
        assertThat(emitter.emitted()).hasSize(1);
        assertThat(memory.dueBuckets()).isEmpty();

        // The pipeline's default lateness takes a late event as a correction: the window has a due time again.
        BatchResult late = ingest.handle(List.of(message("k0", "late-1", T0.plusSeconds(30))));
        assertThat(late.late()).isEqualTo(1);
        StoredWindow reopened = memory.all().get(0);
        assertThat(reopened.dueAt()).isNotNull();
        assertThat(memory.dueBuckets()).singleElement().satisfies(b -> assertThat(b.entries()).containsExactly(reopened.ref()));
    }

    @Test
    void shardsSweptInParallelCloseEveryWindowOnceAndLeaveNothingListed() {
        SweepService parallel = new SweepService(withSettings(flaky.settings().withSweepParallelism(4)), shardThreads);
        for (int batch = 0; batch < 12; batch++) {
            ingest.handle(events("b" + batch + "-", 10, T0));
        }
        assertThat(memory.dueBuckets().stream().map(DueBucket::shard).distinct().count()).as("buckets in several shards").isGreaterThan(1);

        clock.set(T0.plus(IDLE_PAST_END));
        SweepReport run = parallel.sweep(clock.instant().plusSeconds(50));

        assertThat(run.claimed()).isEqualTo(120);
        assertThat(emitter.emitted()).hasSize(120);
        assertThat(memory.all()).allSatisfy(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
        assertThat(memory.dueBuckets()).as("committed windows are not listed again").isEmpty();
    }

    @Test
    void aParallelSweepThatCrashesInOneShardFailsWholeAndSettlesNothing() {
        SweepService parallel = new SweepService(withSettings(flaky.settings().withSweepParallelism(4)), shardThreads);
        for (int batch = 0; batch < 12; batch++) {
            ingest.handle(events("b" + batch + "-", 10, T0));
        }
        List<DueBucket> before = memory.dueBuckets();
        store.crashOnDueReadOfShard = before.get(0).shard();
        clock.set(T0.plus(IDLE_PAST_END));

        assertThatThrownBy(() -> parallel.sweep(clock.instant().plusSeconds(50))).isInstanceOf(SimulatedCrash.class);
        assertThat(memory.dueBuckets()).as("a crashed run deletes no bucket").containsAll(before);
    }

    @Test
    void aParallelSweeperWithoutThreadsToSweepOnIsRefusedWithTheSetting() {
        FaninEngine parallel = withSettings(flaky.settings().withSweepParallelism(4));

        assertThatThrownBy(() -> new SweepService(parallel)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sweepParallelism 4 needs threads");
    }

    private FaninEngine withSettings(FaninSettings settings) {
        return new FaninEngine(flaky.config(), flaky.ports(), settings, clock);
    }

    private List<InboundMessage> events(String keyPrefix, int keys, Instant at) {
        return IntStream.range(0, keys).mapToObj(k -> message(keyPrefix + "k" + k, "e" + (messages + 1), at)).toList();
    }

    /** A crash of the process, as the simulation models it: an Error nothing catches. */
    private static final class SimulatedCrash extends Error {
        SimulatedCrash(String message) {
            super(message);
        }
    }

    private List<InboundMessage> events(int keys, Instant at) {
        return IntStream.range(0, keys).mapToObj(k -> message("k" + k, "e" + (messages + 1), at)).toList();
    }

    private InboundMessage message(String key, String eventId, Instant eventTime) {
        messages++;
        return InMemoryEngines.message("m" + messages, InMemoryEngines.rawEvent(key, eventId, eventTime), clock.instant(), 1);
    }

    /** Timers whose sends all fail: the sweeper is the only closer. */
    private static final class LostTimers implements WindowTimers {
        @Override
        public void arm(Wakeup wakeup, Instant now) {
            throw new IllegalStateException("timer queue unavailable");
        }
    }

    /** The in-memory store, with window creates or due listings failing on demand. */
    private static final class FlakyStore extends ForwardingWindowStore {
        final InMemoryWindowStore memory;
        boolean failCreates;
        boolean failListings;
        int crashOnDueReadOfShard = -1;

        FlakyStore(InMemoryWindowStore memory) {
            super(memory);
            this.memory = memory;
        }

        @Override
        public WriteOutcome create(StoredWindow window) {
            if (failCreates) {
                throw new StoreUnavailableException("crash after the listing", null);
            }
            return super.create(window);
        }

        @Override
        public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
            if (shard == crashOnDueReadOfShard) {
                throw new SimulatedCrash("crash reading shard " + shard);
            }
            return super.due(pipeline, shard, dueBy, limit, cursor);
        }

        @Override
        public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
            if (failListings) {
                throw new StoreUnavailableException("throttled", null);
            }
            super.addDue(pipeline, dueAt, entries, expiresAt);
        }
    }
}
