package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HOLD policy (docs/SEMANTICS.md, "Window life cycle"): a time trigger that finds the window incomplete holds it
 * instead of firing; a HELD window keeps accepting its missing events whatever the watermark says, fires complete as
 * soon as it is, and at the hard deadline fires flagged or is dead-lettered, as {@code atDeadline} says.
 *
 * <p>The window: the fixture's tumbling minute [T0, T0+60 s) expecting 3 events, allowed lateness 30 s, hard deadline
 * T0+1 h (it is created at T0).
 */
class HoldPolicyTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final long END = T0.toEpochMilli() + 60_000;
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Instant DEADLINE = T0.plus(Duration.ofHours(1));

    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(T0.toEpochMilli()));

    private static PipelineConfig expectingThree(Mode mode, AtDeadline atDeadline) {
        return PipelineFixture.pipeline().expected(new ExpectedSpec(3, null, null, 0)).incomplete(mode, atDeadline).build();
    }

    private static WindowMachine holding(AtDeadline atDeadline) {
        return new WindowMachine(expectingThree(Mode.HOLD, atDeadline), LEASE);
    }

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).as("the step writes").isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    /** The window after two of its three events, at T0, with the watermark far behind: OPEN. */
    private WindowState twoOfThree(WindowMachine m) {
        WindowState open = m.open(ref, new Interval(T0.toEpochMilli(), END), T0);
        WindowState s = stored(m.ingest(open, List.of(event("e1", T0.toEpochMilli()), event("e2", T0.toEpochMilli() + 1)),
                T0.toEpochMilli() - 5_000, T0), open);
        assertThat(s.status()).isEqualTo(WindowStatus.OPEN);
        return s;
    }

    /** Held by a sweep once the watermark reached the window's end. */
    private WindowState held(WindowMachine m) {
        WindowState s = twoOfThree(m);
        return stored(m.tick(s, END, T0.plusSeconds(65)), s);
    }

    @ParameterizedTest(name = "watermark end{0} -> held={1}")
    @CsvSource({"-1, false", "+0, true", "+29999, true", "+30000, true"})
    void aTimeTriggerFindingTheWindowIncompleteHoldsItOnce(long watermarkAfterEnd, boolean held) {
        WindowMachine m = holding(AtDeadline.FIRE_FLAGGED);
        WindowState s = twoOfThree(m);
        Instant now = T0.plusSeconds(65);

        Transition t = m.tick(s, END + watermarkAfterEnd, now);

        if (!held) {
            assertThat(t.action()).isEqualTo(Transition.Action.NONE);
            assertThat(t.next().status()).isEqualTo(WindowStatus.OPEN);
            return;
        }
        assertThat(t.action()).as("the write that holds it alerts").isEqualTo(Transition.Action.HELD);
        WindowState h = stored(t, s);
        assertThat(h.status()).isEqualTo(WindowStatus.HELD);
        assertThat(h.claim()).isNull();
        assertThat(t.listingDue()).as("a HELD window is next due at its hard deadline").isEqualTo(DEADLINE);
        assertThat(h.dueAt()).as("an earlier stored due time may stay").isBeforeOrEqualTo(DEADLINE);

        Transition again = m.tick(h, END + watermarkAfterEnd + 60_000, now.plusSeconds(60));
        assertThat(again.action()).as("held once: no second alert").isEqualTo(Transition.Action.NONE);
        assertThat(again.write()).isFalse();
        assertThat(again.next().status()).isEqualTo(WindowStatus.HELD);
    }

    @ParameterizedTest(name = "watermark end+{0} ms")
    @ValueSource(longs = {0, 30_000, 3_600_000})
    void aHeldWindowAcceptsItsMissingEventWhateverTheWatermarkAndFiresComplete(long watermarkAfterEnd) {
        WindowMachine m = holding(AtDeadline.DEAD_LETTER);
        WindowState h = held(m);
        Instant now = T0.plusSeconds(600);

        Transition t = m.ingest(h, List.of(event("e3", T0.toEpochMilli() + 2)), END + watermarkAfterEnd, now);

        assertThat(t.outcomes()).extracting(EventOutcome::disposition).containsExactly(Disposition.ACCEPTED_LATE);
        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
        Claim claim = t.next().claim();
        assertThat(claim.reason()).isEqualTo(CloseReason.EXPECTED_COMPLETE);
        assertThat(claim.complete()).isTrue();
        assertThat(claim.deadLetter()).isFalse();
        assertThat(t.next().lateEvents()).isEqualTo(1);
    }

    /**
     * The missing event arriving in the same write that would hold the window (no sweep held it first) is accepted as
     * it would be once the window is held: whether it counts must not depend on which came first.
     */
    @Test
    void theMissingEventCountsAlsoWhenItComesBeforeAnyVisitHeldTheWindow() {
        WindowMachine m = holding(AtDeadline.FIRE_FLAGGED);
        WindowState s = twoOfThree(m);
        long watermark = END + 40_000;

        Transition t = m.ingest(s, List.of(event("e3", T0.toEpochMilli() + 2)), watermark, T0.plusSeconds(100));

        assertThat(t.outcomes()).extracting(EventOutcome::disposition).containsExactly(Disposition.ACCEPTED_LATE);
        assertThat(t.next().claim().reason()).isEqualTo(CloseReason.EXPECTED_COMPLETE);
        assertThat(t.next().claim().complete()).isTrue();
    }

    @Test
    void aTooLateEventNeverCreatesAHeldWindow() {
        WindowMachine m = holding(AtDeadline.FIRE_FLAGGED);
        WindowState open = m.open(ref, new Interval(T0.toEpochMilli(), END), T0.plusSeconds(100));

        Transition t = m.ingest(open, List.of(event("e1", T0.toEpochMilli())), END + 30_000, T0.plusSeconds(100));

        assertThat(t.outcomes()).extracting(EventOutcome::disposition).containsExactly(Disposition.TOO_LATE);
        // Written only to keep the verdict: closed at once, with nothing to emit and nothing missing to wait for.
        assertThat(t.next().status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(t.action()).isEqualTo(Transition.Action.NONE);
        assertThat(t.next().dueAt()).isNull();
    }

    @ParameterizedTest(name = "atDeadline {0}")
    @EnumSource(AtDeadline.class)
    void atTheHardDeadlineAHeldWindowFiresFlaggedOrIsDeadLettered(AtDeadline atDeadline) {
        WindowMachine m = holding(atDeadline);
        WindowState h = held(m);

        Transition before = m.tick(h, END + 60_000, DEADLINE.minusMillis(1));
        assertThat(before.next().status()).isEqualTo(WindowStatus.HELD);
        assertThat(before.action()).isEqualTo(Transition.Action.NONE);

        Transition t = m.tick(h, END + 60_000, DEADLINE);

        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
        Claim claim = t.next().claim();
        assertThat(claim.reason()).isEqualTo(CloseReason.HARD_LIFETIME);
        assertThat(claim.complete()).isFalse();
        assertThat(claim.deadLetter()).isEqualTo(atDeadline == AtDeadline.DEAD_LETTER);
        assertThat(claim.emission().path("complete").asBoolean()).isFalse();
        assertThat(claim.emission().path("missingCount").asLong()).isEqualTo(1);
    }

    @ParameterizedTest(name = "atDeadline {0}")
    @EnumSource(AtDeadline.class)
    void aWindowNeverHeldThatReachesTheHardDeadlineIncompleteGoesTheSameWay(AtDeadline atDeadline) {
        WindowMachine m = holding(atDeadline);
        WindowState s = twoOfThree(m);

        // The watermark never reached the window's end: only the hard lifetime holds.
        Transition t = m.tick(s, T0.toEpochMilli(), DEADLINE);

        assertThat(t.next().claim().reason()).isEqualTo(CloseReason.HARD_LIFETIME);
        assertThat(t.next().claim().complete()).isFalse();
        assertThat(t.next().claim().deadLetter()).isEqualTo(atDeadline == AtDeadline.DEAD_LETTER);
    }

    @Test
    void aCompleteWindowIsNeverHeld() {
        WindowMachine m = holding(AtDeadline.DEAD_LETTER);
        WindowState s = twoOfThree(m);

        Transition t = m.ingest(s, List.of(event("e3", T0.toEpochMilli() + 2)), T0.toEpochMilli(), T0.plusSeconds(1));

        assertThat(t.next().claim().reason()).isEqualTo(CloseReason.EXPECTED_COMPLETE);
        assertThat(t.next().claim().complete()).isTrue();
        assertThat(t.next().claim().deadLetter()).isFalse();
    }

    /** The other policies fire an incomplete window at its time trigger, flagged; only HOLD holds, and never dead-letters then. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mode.class, names = {"FIRE_PARTIAL", "FIRE_AND_RECONCILE"})
    void otherPoliciesFireIncompleteAtTheTimeTrigger(Mode mode) {
        WindowMachine m = new WindowMachine(expectingThree(mode, AtDeadline.DEAD_LETTER), LEASE);
        WindowState s = twoOfThree(m);

        Transition t = m.tick(s, END, T0.plusSeconds(65));

        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
        assertThat(t.next().claim().reason()).isEqualTo(CloseReason.WATERMARK);
        assertThat(t.next().claim().complete()).isFalse();
        assertThat(t.next().claim().deadLetter()).isFalse();
    }

    /** A count threshold under HOLD is not a completeness: an incomplete window that reaches it is held, not fired. */
    @Test
    void underHoldACountReachedOnAnIncompleteWindowHoldsIt() {
        PipelineConfig config = PipelineFixture.pipeline().expected(new ExpectedSpec(3, null, null, 0)).count(2)
                .incomplete(Mode.HOLD, AtDeadline.FIRE_FLAGGED).build();
        WindowMachine m = new WindowMachine(config, LEASE);
        WindowState open = m.open(ref, new Interval(T0.toEpochMilli(), END), T0);

        Transition t = m.ingest(open, List.of(event("e1", T0.toEpochMilli()), event("e2", T0.toEpochMilli() + 1)),
                T0.toEpochMilli() - 5_000, T0);

        assertThat(t.next().status()).isEqualTo(WindowStatus.HELD);
        assertThat(t.action()).isEqualTo(Transition.Action.HELD);
        assertThat(t.next().claim()).isNull();
    }

    @Test
    void aHeldSessionIsClaimedWhenItsSentinelCompletesIt() {
        PipelineConfig config = PipelineFixture.pipeline().window(new dev.fanin.core.config.WindowSpec.Session(Duration.ofSeconds(30)))
                .sentinel(new dev.fanin.core.config.SentinelSpec(new dev.fanin.core.config.Condition(
                        PipelineFixture.path("$.type"), "done", null, null, null), null, false))
                .incomplete(Mode.HOLD, AtDeadline.DEAD_LETTER).build();
        WindowMachine m = new WindowMachine(config, LEASE);
        WindowState open = m.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 30_000), T0);
        WindowState s = stored(m.ingest(open, List.of(event("a", T0.toEpochMilli())), T0.toEpochMilli() - 5_000, T0), open);

        Transition gap = m.tick(s, T0.toEpochMilli() + 30_000, T0.plusSeconds(35));
        assertThat(gap.action()).as("the session gap finds it incomplete").isEqualTo(Transition.Action.HELD);
        WindowState h = stored(gap, s);

        Transition t = m.ingest(h, List.of(event("z", T0.toEpochMilli() + 1_000,
                "{\"type\":\"done\"}")), T0.toEpochMilli() + 90_000, T0.plusSeconds(95));
        assertThat(t.next().claim().reason()).isEqualTo(CloseReason.SENTINEL);
        assertThat(t.next().claim().complete()).isTrue();
        assertThat(t.next().claim().emission().path("window").path("end").asText()).isEqualTo("2026-11-29T10:00:31.000Z");
    }
}
