package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.machine.WindowState;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A timer batch of ten due windows on a throttled table (4 s a read): every claim was written with the lease of the
 * batch's start, the last ones already over, so a sweep in another container took them all over just before the
 * batch's emission and each revision was emitted twice (a review). Each visit now decides at its read, and the batch
 * emits the claims it holds once the oldest has used half its lease, as ingest and the sweep do.
 */
class TimerBatchClaimLeaseTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:10Z");
    private final TestClock clock = new TestClock(T0);
    private boolean slow;
    /** Each claim written by the timer batch: when, and until when its lease runs. */
    private final List<Instant[]> claimWrites = new ArrayList<>();

    @Test
    void aSlowTimerBatchRacingASweepElsewhereEmitsEachRevisionOnce() {
        Map<String, Long> emissions = fireTenDueTimersOnAThrottledTable(true);

        assertThat(emissions).hasSize(10);
        assertThat(emissions.values()).as("each revision emitted once").allMatch(n -> n == 1);
    }

    @Test
    void aSlowTimerBatchWritesEachClaimWithALeaseFromItsWrite() {
        Map<String, Long> emissions = fireTenDueTimersOnAThrottledTable(false);

        assertThat(claimWrites).as("claims written").hasSizeGreaterThanOrEqualTo(10)
                .allSatisfy(w -> assertThat(w[1]).as("lease from its write").isAfter(w[0]));
        assertThat(emissions.values()).hasSize(10).allMatch(n -> n == 1);
    }

    /**
     * Ten windows due at 10:07 by the idle advance, each with its timer, fired as one batch whose every read takes 4 s;
     * with {@code racingSweep}, a sweep in another container (same table and target, fast reads) runs as the batch
     * makes its first emission.
     *
     * @return emissions per aggregate id
     */
    private Map<String, Long> fireTenDueTimersOnAThrottledTable(boolean racingSweep) {
        String yaml = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}");
        InMemoryWindowStore memory = new InMemoryWindowStore(1);
        FaninEngine[] timerEngine = {null};
        ForwardingWindowStore throttled = new ForwardingWindowStore(memory) {
            @Override
            public Optional<StoredWindow> load(WindowRef ref) {
                if (slow) {
                    clock.advance(Duration.ofSeconds(4)); // a throttled table: a read takes 4 s of SDK retries
                }
                return super.load(ref);
            }

            @Override
            public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
                WriteOutcome o = super.replace(previous, next);
                WindowState s = timerEngine[0].decode(next);
                if (o.applied() && s.isClaimed()) {
                    claimWrites.add(new Instant[] {clock.instant(), s.leaseUntil()});
                }
                return o;
            }
        };
        RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
        RecordingTimers timers = new RecordingTimers();
        // Another container's sweeper, on the same table and target (no throttling on its reads).
        FaninEngine sweeper = InMemoryEngines.of(yaml, memory, emitter, new RecordingTimers(), clock);
        boolean[] swept = {false};
        AggregateEmitter timerEmitter = requests -> {
            if (racingSweep && !swept[0]) {
                swept[0] = true;
                slow = false;
                new SweepService(sweeper).sweep(clock.instant().plusSeconds(50)); // runs while the timer batch emits
            }
            return emitter.emit(requests);
        };
        timerEngine[0] = InMemoryEngines.of(yaml, throttled, timerEmitter, timers, clock);
        FaninEngine engine = timerEngine[0];
        List<dev.fanin.core.intake.InboundMessage> batch = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            batch.add(InMemoryEngines.message("m" + k, InMemoryEngines.rawEvent("k" + k, "e" + k, T0), T0, 1));
        }
        new IngestService(engine).handle(batch);
        assertThat(memory.all()).hasSize(10);

        Instant at = Instant.parse("2026-11-29T10:07:00Z"); // idle advance: every window is due by its end
        clock.set(at);
        List<WindowTimers.Wakeup> due = timers.takeDue(at).stream().map(RecordingTimers.Timer::wakeup).toList();
        assertThat(due).hasSize(10);
        slow = true;
        new TimerService(engine).fireAll(due);

        return emitter.emitted().stream().collect(Collectors.groupingBy(AggregateEmitter.Request::aggregateId, Collectors.counting()));
    }
}
