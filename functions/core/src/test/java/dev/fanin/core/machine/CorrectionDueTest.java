package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When a pending correction is due: {@code late.correctionDelay} after its first event, but never so late that the
 * window's items, whose expiry was fixed when it opened, could expire before it is emitted (a longer delay published
 * since). Under the configuration the window opened with, the delay always comes first.
 *
 * <p>The window: the fixture's tumbling minute [T0, T0+60 s), a 1 h lifetime, closed by a count of 2 and committed at
 * T0+3 s, lease 30 s, allowedLateness 30 s, correction delay 5 s.
 */
class CorrectionDueTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(T0.toEpochMilli()));

    /**
     * Retention 2 h: the window expires at T0 + 1h + 30s + 5s + lease + 2h = T0+3h1m5s. Under a delay of a day, the
     * correction of a late event at T0+40s is due a lease and an hour before that, and claimed then.
     */
    @Test
    void aCorrectionIsDueALeaseAndAnHourBeforeItsWindowExpiresAtTheLatest() {
        PipelineFixture opened = PipelineFixture.pipeline().count(2).maxPast(Duration.ofHours(1)).retention(Duration.ofHours(2));
        WindowState closed = closed(new WindowMachine(opened.build(), LEASE));
        WindowMachine longer = new WindowMachine(opened.correctionDelay(Duration.ofDays(1)).build(), LEASE);

        WindowState pending = lateEvent(longer, closed, T0.plusSeconds(40), T0.plusSeconds(35).toEpochMilli());

        Instant latest = T0.plus(Duration.ofHours(2)).plusSeconds(35);
        assertThat(closed.expiresAt()).isEqualTo(T0.plus(Duration.ofHours(3)).plusSeconds(65));
        assertThat(pending.dueAt()).isEqualTo(latest).isEqualTo(closed.expiresAt().minus(LEASE).minus(WindowMachine.CORRECTION_MARGIN));
        assertThat(longer.tick(pending, latest.toEpochMilli(), latest.minusMillis(1)).action()).isEqualTo(Transition.Action.NONE);
        Transition claimed = longer.tick(pending, latest.toEpochMilli(), latest);
        assertThat(claimed.action()).isEqualTo(Transition.Action.EMIT);
        assertThat(claimed.next().claim().reason()).isEqualTo(CloseReason.LATE_CORRECTION);
    }

    /**
     * A retention of 15 m, shorter than the margin of an hour: a late event at the last moment the lateness allows
     * (hard deadline + 30 s - 1 ms) still makes its correction wait the whole delay, as the window's expiry has room
     * for it.
     */
    @Test
    void underTheConfigurationAWindowOpenedWithItsCorrectionWaitsTheWholeDelay() {
        WindowMachine machine = new WindowMachine(PipelineFixture.pipeline().count(2).maxPast(Duration.ofMinutes(10))
                .retention(Duration.ofMinutes(15)).build(), LEASE);
        WindowState closed = closed(machine);
        Instant last = closed.hardDeadline().plusSeconds(30).minusMillis(1);

        WindowState pending = lateEvent(machine, closed, last, T0.plusSeconds(60).toEpochMilli());

        assertThat(pending.dueAt()).isEqualTo(last.plusSeconds(5));
        assertThat(machine.tick(pending, last.toEpochMilli(), last.plusSeconds(5).minusMillis(1)).action()).isEqualTo(Transition.Action.NONE);
    }

    /** Revision 0, closed by the count at T0+2 s and committed at T0+3 s. */
    private WindowState closed(WindowMachine machine) {
        WindowState open = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
        Transition claim = machine.ingest(open, List.of(event("e1", T0.toEpochMilli()), event("e2", T0.plusSeconds(1).toEpochMilli())),
                T0.toEpochMilli(), T0.plusSeconds(2));
        assertThat(claim.action()).isEqualTo(Transition.Action.EMIT);
        WindowState claimed = stored(claim, open);
        WindowState closed = stored(machine.commit(claimed, claimed.fence(), T0.toEpochMilli(), T0.plusSeconds(3)), claimed);
        assertThat(closed.status()).isEqualTo(WindowStatus.CLOSED);
        return closed;
    }

    private static WindowState lateEvent(WindowMachine machine, WindowState closed, Instant now, long watermark) {
        Transition t = machine.ingest(closed, List.of(event("e3", T0.plusSeconds(10).toEpochMilli())), watermark, now);
        assertThat(t.outcomes()).extracting(EventOutcome::disposition).containsExactly(EventOutcome.Disposition.CORRECTION);
        WindowState pending = stored(t, closed);
        assertThat(pending.pendingSince()).isEqualTo(now);
        return pending;
    }

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).as("the step writes").isTrue();
        return t.next().withVersion(read.version() + 1);
    }
}
