package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.aggregate.EventIdDigest;
import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.IncompletePolicy.AtDeadline;
import dev.fanin.core.config.IncompletePolicy.Mode;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.machine.EventOutcome.Disposition;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A time window whose every event so far was too late is stored for their verdicts alone (docs/SEMANTICS.md,
 * "Lateness"): closed at once, never emitted, due nowhere, holding no slot. For every other event it is a window not
 * yet opened: one in time opens it with a new window's rules, one too late adds its verdict. The window: the fixture's
 * tumbling minute [T0, T0+60 s), allowed lateness 30 s.
 */
class VerdictOnlyWindowTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final long END = T0.toEpochMilli() + 60_000;
    private static final long TOO_LATE = END + 30_000;
    private static final Duration LEASE = Duration.ofSeconds(30);
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(T0.toEpochMilli()));

    @Test
    void aWindowWhoseEventsWereAllTooLateIsStoredClosedForTheirVerdicts() {
        WindowMachine m = new WindowMachine(PipelineFixture.pipeline().build(), LEASE);
        Transition late = m.ingest(open(m), List.of(event("e1", T0.toEpochMilli())), TOO_LATE, T0.plusSeconds(100));
        WindowState kept = stored(late, 0);

        assertThat(late.outcomes()).extracting(EventOutcome::verdict).containsExactly(EventOutcome.Verdict.RECORDED);
        assertThat(late.action()).isEqualTo(Transition.Action.NONE);
        assertThat(kept.keepsVerdictsOnly()).isTrue();
        assertThat(kept.dueAt()).isNull();
        assertThat(kept.timer()).isNull();
        assertThat(kept.holdsSlot()).isFalse();
        assertThat(kept.eventIds()).containsExactly(EventIdDigest.tooLate(EventIdDigest.of("e1")));

        Transition copy = m.ingest(kept, List.of(event("e1", T0.toEpochMilli())), END - 1, T0.plusSeconds(105));
        assertThat(dispositions(copy)).as("even by a watermark that finds it in time").containsExactly(Disposition.TOO_LATE);
        assertThat(copy.write()).isFalse();
    }

    /** An event in time by its own watermark opens it as a new window: revision 0 by its own trigger, correcting nothing. */
    @Test
    void anEventInTimeOpensItAsANewWindowThatKeepsTheVerdicts() {
        WindowMachine m = new WindowMachine(PipelineFixture.pipeline().build(), LEASE);
        WindowState kept = stored(m.ingest(open(m), List.of(event("e1", T0.toEpochMilli())), TOO_LATE, T0.plusSeconds(100)), 0);

        Transition inTime = m.ingest(kept, List.of(event("e2", T0.toEpochMilli() + 1)), END - 1, T0.plusSeconds(105));
        WindowState opened = stored(inTime, kept.version());

        assertThat(dispositions(inTime)).containsExactly(Disposition.ACCEPTED);
        assertThat(opened.status()).isEqualTo(WindowStatus.OPEN);
        assertThat(opened.holdsSlot()).isTrue();
        assertThat(opened.hardDeadline()).as("a new window's lifetime").isEqualTo(T0.plusSeconds(105).plus(m.config().triggers().maxLifetime()));
        assertThat(opened.eventIds()).contains(EventIdDigest.tooLate(EventIdDigest.of("e1")), EventIdDigest.of("e2"));

        Transition fired = m.tick(opened, END, T0.plusSeconds(110));
        assertThat(fired.action()).isEqualTo(Transition.Action.EMIT);
        assertThat(fired.next().claim().revision()).isZero();
        assertThat(fired.next().claim().reason()).isEqualTo(CloseReason.WATERMARK);
        assertThat(fired.next().claim().emission().get("corrects").isNull()).isTrue();
        assertThat(dispositions(m.ingest(opened, List.of(event("e1", T0.toEpochMilli())), END - 1, T0.plusSeconds(106))))
                .containsExactly(Disposition.TOO_LATE);
    }

    /**
     * A second event as late as the first is too late as well, whatever the incomplete policy: the window kept for
     * verdicts is neither held nor reconciling, as a window not yet opened is not (a review: counted under hold and
     * fire-and-reconcile when the kept window was a closed continuation).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mode.class, names = {"HOLD", "FIRE_AND_RECONCILE", "FIRE_PARTIAL"})
    void aSecondEventEquallyTooLateIsTooLateAsWell(Mode mode) {
        PipelineConfig config = PipelineFixture.pipeline().expected(new ExpectedSpec(3, null, null, 0))
                .incomplete(mode, AtDeadline.FIRE_FLAGGED).build();
        WindowMachine m = new WindowMachine(config, LEASE);
        WindowState kept = stored(m.ingest(open(m), List.of(event("e1", T0.toEpochMilli())), TOO_LATE, T0.plusSeconds(100)), 0);

        Transition second = m.ingest(kept, List.of(event("e2", T0.toEpochMilli() + 1)), TOO_LATE, T0.plusSeconds(101));

        assertThat(dispositions(second)).containsExactly(Disposition.TOO_LATE);
        assertThat(second.action()).isEqualTo(Transition.Action.NONE);
        assertThat(stored(second, kept.version()).eventIds()).containsExactlyInAnyOrder(EventIdDigest.tooLate(EventIdDigest.of("e1")), EventIdDigest.tooLate(EventIdDigest.of("e2")));
    }

    /** A backlog in time bigger than a revision splits, as it would in a window never written (a review: RETRY). */
    @Test
    void aBacklogInTimeSplitsAsInAWindowNeverWritten() {
        PipelineConfig config = PipelineFixture.pipeline().maxEventsPerWindow(3).onOverflow(Bounds.Overflow.SPLIT).build();
        WindowMachine m = new WindowMachine(config, LEASE);
        WindowState kept = stored(m.ingest(open(m), List.of(event("e1", T0.toEpochMilli())), TOO_LATE, T0.plusSeconds(100)), 0);

        Transition t = m.ingest(kept, List.of(event("a", T0.toEpochMilli() + 1), event("b", T0.toEpochMilli() + 2),
                event("c", T0.toEpochMilli() + 3), event("d", T0.toEpochMilli() + 4), event("f", T0.toEpochMilli() + 5)),
                END - 1, T0.plusSeconds(101));

        assertThat(dispositions(t)).containsOnly(Disposition.ACCEPTED);
        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
    }

    /**
     * Its expiry stays the one fixed when it was first stored while it keeps verdicts alone (the store's slices of its
     * ids carry it; a writer whose clock is behind never moves it earlier), and becomes a new window's when it opens
     * (a review: recomputed at every write).
     */
    @Test
    void itsExpiryIsFixedUntilItOpensAndThenANewWindows() {
        WindowMachine m = new WindowMachine(PipelineFixture.pipeline().build(), LEASE);
        WindowState kept = stored(m.ingest(open(m), List.of(event("e1", T0.toEpochMilli())), TOO_LATE, T0.plusSeconds(100)), 0);

        Transition later = m.ingest(kept, List.of(event("e2", T0.toEpochMilli() + 1)), TOO_LATE, T0.plus(Duration.ofDays(3)));
        Transition slowClock = m.ingest(kept, List.of(event("e2", T0.toEpochMilli() + 1)), TOO_LATE, T0.plusSeconds(98));
        Instant reopenedAt = T0.plus(Duration.ofDays(3));
        Transition opens = m.ingest(kept, List.of(event("e3", T0.toEpochMilli() + 1)), END - 1, reopenedAt);

        assertThat(stored(later, 1).expiresAt()).isEqualTo(kept.expiresAt());
        assertThat(stored(slowClock, 1).expiresAt()).isEqualTo(kept.expiresAt());
        assertThat(stored(opens, 1).expiresAt()).isEqualTo(m.expiryOfWindowOpenedAt(reopenedAt));
    }

    private WindowState open(WindowMachine m) {
        return m.open(ref, new Interval(T0.toEpochMilli(), END), T0.plusSeconds(100));
    }

    private static WindowState stored(Transition t, long readVersion) {
        assertThat(t.write()).isTrue();
        return t.next().withVersion(readVersion + 1);
    }

    private static List<Disposition> dispositions(Transition t) {
        return t.outcomes().stream().map(EventOutcome::disposition).toList();
    }
}
