package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A timer visit that claims a window commits it, after the emission, from the item its own claim wrote, without reading
 * it again; a write by anyone else in between makes the store refuse the commit, which then reads afresh and commits.
 */
class CommitAfterVisitTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore memory = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final OutageTimers timers = new OutageTimers();
    private final CountingStore store = new CountingStore(memory);

    @Test
    void aTimeWindowClaimedByItsTimerIsCommittedWithoutASecondRead() {
        int visits = closeByTimers("{type: tumbling, size: 60s}");

        assertThat(emitter.emitted()).hasSize(1);
        assertThat(memory.all().get(0).status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(store.loads).as("one read per timer visit, none for the commit").isEqualTo(visits);
    }

    @Test
    void aSessionClaimedByItsTimerIsCommittedWithoutReadingItsLiveItemAgain() {
        int visits = closeByTimers("{type: session, gap: 30s}");

        assertThat(emitter.emitted()).hasSize(1);
        assertThat(memory.all()).singleElement().satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
        assertThat(store.liveLoads - store.liveLoadsByIngest).as("one read per timer visit, none for the commit").isEqualTo(visits);
    }

    @Test
    void aWriteBetweenTheClaimAndTheCommitSendsTheCommitBackToARead() {
        store.competeWithTheCommit = true;

        int visits = closeByTimers("{type: tumbling, size: 60s}");

        assertThat(store.competed).isTrue();
        assertThat(emitter.emitted()).as("emitted once").hasSize(1);
        assertThat(memory.all().get(0).status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(store.loads).as("the refused commit read the window again").isEqualTo(visits + 1);
    }

    /** Ingests one event, then delivers the timer chain until the window is emitted; returns the timer visits. */
    private int closeByTimers(String window) {
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline(window), store, emitter, timers, clock);
        store.ingesting = true;
        new IngestService(engine).handle(List.of(InMemoryEngines.message("m1", InMemoryEngines.rawEvent("k1", "e1", T0), T0, 1)));
        store.ingesting = false;
        TimerService timerService = new TimerService(engine);
        int visits = 0;
        while (emitter.emitted().isEmpty()) {
            assertThat(visits).as("timer visits before the close").isLessThan(50);
            List<WindowTimers.Wakeup> pending = timers.sent.pending().stream().map(t -> t.wakeup()).toList();
            WindowTimers.Wakeup next = pending.get(pending.size() - 1);
            clock.set(next.dueAt().isAfter(clock.instant()) ? next.dueAt() : clock.instant());
            assertThat(timerService.fireAll(List.of(next))).isEmpty();
            visits++;
        }
        return visits;
    }

    /** Counts reads; on request, writes the window once more just before its commit, as a racing invocation would. */
    private static final class CountingStore extends ForwardingWindowStore {
        private final InMemoryWindowStore memory;
        /** Window loads outside the ingest. */
        int loads;
        int liveLoads;
        int liveLoadsByIngest;
        boolean ingesting;
        boolean competeWithTheCommit;
        boolean competed;

        CountingStore(InMemoryWindowStore memory) {
            super(memory);
            this.memory = memory;
        }

        @Override
        public Optional<StoredWindow> load(WindowRef ref) {
            loads += ingesting ? 0 : 1;
            return super.load(ref);
        }

        @Override
        public LiveSessions loadLive(String pipeline, String key) {
            liveLoads++;
            liveLoadsByIngest += ingesting ? 1 : 0;
            return super.loadLive(pipeline, key);
        }

        @Override
        public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
            if (competeWithTheCommit && !competed && previous.status() == WindowStatus.CLAIMED && next.status() == WindowStatus.CLOSED) {
                competed = true;
                StoredWindow stored = memory.load(previous.ref()).orElseThrow();
                assertThat(memory.replace(stored, stored).applied()).isTrue();
            }
            return super.replace(previous, next);
        }
    }
}
