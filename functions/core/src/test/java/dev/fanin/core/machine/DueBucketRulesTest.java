package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How the machine keeps a window's stored due time (its {@code dueAt}, which a due bucket lists): never later than the
 * next check rounded up to the 10 s grid (so the sweeper is never late), moved earlier at once, and moved later only by
 * a write that happens anyway and finds it already past. A sweep that finds it past writes nothing and reports the
 * next visit ({@link Transition#listingDue()}), where the sweeper lists the window again. Timers keep the exact time; a
 * timer chain continued by its own message writes nothing (TimerChainTest).
 */
class DueBucketRulesTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);

    /** Sessions of 30 s gap; the fixture's watermark allows 5 s of out-of-orderness. */
    private final PipelineConfig sessions = PipelineFixture.pipeline().window(new WindowSpec.Session(Duration.ofSeconds(30))).build();
    private final WindowMachine machine = new WindowMachine(sessions, LEASE, Duration.ofSeconds(10));
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", "s-1");

    /** The session after its first event at T0 (arrival T0, watermark T0 - 5 s), as stored (version 1). */
    private WindowState firstEvent() {
        WindowState open = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 30_000), T0);
        Transition t = machine.ingest(open, List.of(event("e1", T0.toEpochMilli())), watermarkAt(T0), T0);
        assertThat(t.write()).isTrue();
        return t.next().withVersion(1);
    }

    private static long watermarkAt(Instant now) {
        return now.toEpochMilli() - 5_000;
    }

    @Test
    void aNewWindowIsListedAtItsNextCheckRoundedUpAndTimedExactly() {
        WindowState s = firstEvent();
        // Session end T0+30 s, watermark T0-5 s: the watermark reaches the end 35 s from now.
        assertThat(s.timer()).isEqualTo(new TimerChain(1, T0.plusSeconds(35)));
        assertThat(s.dueAt()).isEqualTo(T0.plusSeconds(40));
    }

    @Test
    void anEventExtendingTheSessionKeepsTheEarlierListingAndItsTimer() {
        WindowState s = firstEvent();
        Instant now = T0.plusSeconds(20);
        Transition t = machine.ingest(s, List.of(event("e2", now.toEpochMilli())), watermarkAt(now), now);

        assertThat(t.write()).isTrue();
        assertThat(t.next().dueAt()).as("stored due time not moved: an early listing is harmless").isEqualTo(T0.plusSeconds(40));
        assertThat(t.next().timer()).as("the armed timer is earlier, so no new one").isEqualTo(s.timer());
        assertThat(t.armsTimer()).isFalse();
    }

    @Test
    void aTimerFiringBeforeTheWindowIsDueContinuesItsChainWithoutAWriteOrANewListing() {
        WindowState extended = machine.ingest(firstEvent(), List.of(event("e2", T0.plusSeconds(20).toEpochMilli())),
                watermarkAt(T0.plusSeconds(20)), T0.plusSeconds(20)).next().withVersion(2);
        Instant fired = T0.plusSeconds(35);
        Transition t = machine.tick(extended, watermarkAt(fired), fired, own(extended));

        assertThat(t.write()).isFalse();
        // Session end T0+50 s; the watermark (T0+30 s) gets there in 20 s.
        assertThat(t.timerDue()).isEqualTo(T0.plusSeconds(55));
        assertThat(t.next().dueAt()).isEqualTo(T0.plusSeconds(40));
    }

    @ParameterizedTest(name = "sweep {0} s after the stored due")
    @ValueSource(longs = {0, 5, 14})
    void aSweepLeavesAStoredDueAlreadyPastAloneAndReportsTheNextVisit(long secondsAfterDue) {
        WindowState extended = extendedOnce();
        Instant now = extended.dueAt().plusSeconds(secondsAfterDue);
        Transition t = machine.tick(extended, watermarkAt(now), now, Visitor.SWEEP);

        assertThat(t.write()).isFalse();
        assertThat(t.next().dueAt()).isEqualTo(extended.dueAt());
        // Session end T0+50 s: the watermark gets there at T0+55 s, rounded up to the grid.
        assertThat(t.listingDue()).isEqualTo(T0.plusSeconds(60));
    }

    @Test
    void aTimerNeverMovesAStoredDueAlreadyPast() {
        WindowState extended = extendedOnce();
        Instant now = extended.dueAt().plusSeconds(5);
        Transition t = machine.tick(extended, watermarkAt(now), now, own(extended));

        assertThat(t.write()).isFalse();
        assertThat(t.next().dueAt()).isEqualTo(extended.dueAt());
    }

    @ParameterizedTest(name = "event {0} s after the stored due")
    @ValueSource(longs = {0, 5})
    void aWriteThatHappensAnywayReplacesAStoredDueAlreadyPast(long secondsAfterDue) {
        WindowState extended = extendedOnce();
        Instant now = extended.dueAt().plusSeconds(secondsAfterDue);
        Transition t = machine.ingest(extended, List.of(event("e3", now.toEpochMilli())), watermarkAt(now), now);

        assertThat(t.write()).isTrue();
        // Session end now+30 s, watermark now-5 s: next check 35 s from now, rounded up.
        Instant exact = now.plusSeconds(35);
        Instant roundedUp = Instant.ofEpochMilli(Math.floorDiv(exact.toEpochMilli() + 9_999, 10_000) * 10_000);
        assertThat(t.next().dueAt()).isEqualTo(roundedUp).isEqualTo(t.listingDue());
    }

    @Test
    void aStoredDueStillAheadIsKeptByAWrite() {
        WindowState extended = extendedOnce();
        Instant now = extended.dueAt().minusMillis(1);
        Transition t = machine.ingest(extended, List.of(event("e3", now.toEpochMilli())), watermarkAt(now), now);

        assertThat(t.write()).isTrue();
        assertThat(t.next().dueAt()).isEqualTo(extended.dueAt());
        assertThat(t.listingDue()).isAfter(extended.dueAt());
    }

    @Test
    void aDuplicateChangesNothingEvenWhenTheStoredDueHasPassed() {
        WindowState extended = extendedOnce();
        Instant now = extended.dueAt().plusSeconds(5);
        Transition t = machine.ingest(extended, List.of(event("e2", T0.plusSeconds(20).toEpochMilli())), watermarkAt(now), now);

        assertThat(t.write()).isFalse();
        assertThat(t.next().dueAt()).isEqualTo(extended.dueAt());
    }

    @Test
    void anEntryMovesEarlierAtOnceWhenTheNextCheckComesSooner() {
        // A tumbling minute whose watermark lags by ten minutes is listed at its hard deadline (an hour away) ...
        PipelineConfig tumbling = PipelineFixture.pipeline().build();
        WindowMachine m = new WindowMachine(tumbling, LEASE, Duration.ofSeconds(10));
        WindowState open = m.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
        long lagging = T0.toEpochMilli() - Duration.ofHours(2).toMillis();
        WindowState s = m.ingest(open, List.of(event("e1", T0.toEpochMilli())), lagging, T0).next().withVersion(1);
        assertThat(s.dueAt()).isEqualTo(s.hardDeadline());

        // ... and when the watermark catches up to 30 s before the window's end, the entry moves to 30 s from now.
        Instant now = T0.plusSeconds(5);
        Transition t = m.tick(s, T0.toEpochMilli() + 30_000, now, own(s));
        assertThat(t.write()).isTrue();
        assertThat(t.next().dueAt()).isEqualTo(T0.plusSeconds(40));
    }

    @Test
    void theStoredDueNeverPassesTheRoundedNextCheckAcrossAnyVisitor() {
        WindowState s = firstEvent();
        Instant now = T0;
        for (int i = 1; i <= 40; i++) {
            now = now.plusSeconds(7);
            Transition t = switch (i % 3) {
                case 0 -> machine.ingest(s, List.of(event("e" + i + "x", now.toEpochMilli())), watermarkAt(now), now);
                case 1 -> machine.tick(s, watermarkAt(now), now, own(s));
                default -> machine.tick(s, watermarkAt(now), now, Visitor.SWEEP);
            };
            WindowState next = t.next();
            if (next.status() != WindowStatus.OPEN) {
                break;
            }
            Instant exact = now.plusMillis(Math.max(0, next.bounds().endMillis() - watermarkAt(now)));
            Instant roundedUp = Instant.ofEpochMilli(Math.floorDiv(exact.toEpochMilli() + 9_999, 10_000) * 10_000);
            assertThat(next.dueAt()).as("step %d", i).isBeforeOrEqualTo(roundedUp);
            s = t.write() ? next.withVersion(s.version() + 1) : s;
        }
    }

    /** A message of the window's live timer chain. */
    private static Visitor own(WindowState s) {
        return Visitor.timer(s.timer().id(), s.timer().armedFor());
    }

    /** The session after a second event at T0+20 s: stored due still T0+40 s, session end T0+50 s, as stored. */
    private WindowState extendedOnce() {
        Instant at = T0.plusSeconds(20);
        WindowState s = machine.ingest(firstEvent(), List.of(event("e2", at.toEpochMilli())), watermarkAt(at), at).next().withVersion(2);
        assertThat(s.dueAt()).isEqualTo(T0.plusSeconds(40));
        return s;
    }
}
