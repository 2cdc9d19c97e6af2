package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A sweep that commits a window forgets the listing it had planned for it, but only that one: a late event that
 * reopens the window during the same (long) run lists it in an ingest bucket, and when the run reaches that bucket and
 * visits the window again, the listing of that visit stands. (Found in review: applying the commits only at the end of
 * the run dropped it, leaving a window with a due time that no bucket listed.) Timers are lost throughout.
 */
class SweepRelistAfterCommitTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final int SHARDS = 4;

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore memory = new InMemoryWindowStore(SHARDS);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final String yaml = InMemoryEngines.rawPipeline("{type: tumbling, size: 60s}") + "    late: {correctionDelay: 5m}\n";
    private final LateEventOnCommit store = new LateEventOnCommit(memory);
    private final FaninEngine engine = InMemoryEngines.of(yaml, store, emitter, (wakeup, now) -> {
        throw new IllegalStateException("timer queue unavailable");
    }, clock);
    private final IngestService ingest = new IngestService(engine);
    private final SweepService sweep = new SweepService(engine);
    private int messages;

    @Test
    void aWindowReopenedAfterTheSweepCommittedItAndVisitedAgainInTheSameRunStaysListed() {
        ingest.handle(IntStream.range(0, 10).mapToObj(k -> message("k" + k, "e" + k, T0)).toList());
        clock.set(T0.plus(Duration.ofMinutes(7)));
        // The target: a window whose ingest listing the run reaches after the shard holding the batch's bucket.
        store.target = windowInAShardSweptLater();

        sweep.sweep(clock.instant().plusSeconds(600));

        assertThat(store.reopened).as("the late event came right after the sweep committed the window").isTrue();
        StoredWindow window = memory.load(store.target).orElseThrow();
        assertThat(window.status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(window.dueAt()).as("a correction is pending").isNotNull();
        Set<WindowRef> listed = new HashSet<>();
        memory.dueBuckets().forEach(b -> listed.addAll(b.entries()));
        assertThat(listed).as("the window with a due time is listed").contains(store.target);
    }

    private WindowRef windowInAShardSweptLater() {
        int batchShard = memory.dueBuckets().get(0).shard();
        int first = (int) Math.floorMod(clock.instant().getEpochSecond() / 60, (long) SHARDS);
        for (int k = 1; k < 10; k++) {
            WindowRef ref = new WindowRef("p", "k" + k, WindowRef.timeWindowId(T0.toEpochMilli()));
            InMemoryWindowStore scratch = new InMemoryWindowStore(SHARDS);
            scratch.addDue("p", T0, List.of(ref), T0);
            int shard = scratch.dueBuckets().get(0).shard();
            if (Math.floorMod(shard - first, SHARDS) > Math.floorMod(batchShard - first, SHARDS)) {
                return ref;
            }
        }
        throw new AssertionError("no key of the batch falls in a shard swept after the batch's bucket");
    }

    private InboundMessage message(String key, String eventId, Instant eventTime) {
        messages++;
        return InMemoryEngines.message("m" + messages, InMemoryEngines.rawEvent(key, eventId, eventTime), clock.instant(), 1);
    }

    /** The store; when the sweep commits the target window, a late event for it arrives and 41 s pass. */
    private final class LateEventOnCommit extends ForwardingWindowStore {
        WindowRef target;
        boolean reopened;

        LateEventOnCommit(InMemoryWindowStore memory) {
            super(memory);
        }

        @Override
        public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
            WriteOutcome outcome = super.replace(previous, next);
            if (outcome.applied() && !reopened && next.ref().equals(target) && next.status() == WindowStatus.CLOSED) {
                reopened = true;
                BatchResult late = new IngestService(engine).handle(List.of(message(target.key(), "late-1", T0.plusSeconds(30))));
                assertThat(late.late()).isEqualTo(1);
                clock.advance(Duration.ofSeconds(41));
            }
            return outcome;
        }
    }
}
