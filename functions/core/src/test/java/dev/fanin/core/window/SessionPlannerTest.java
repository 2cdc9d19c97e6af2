package dev.fanin.core.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SessionPlannerTest {

    private static final Duration GAP = Duration.ofMillis(5);

    /** A session whose first event was at {@code first} and last at {@code last}: bounds [first, last + gap). */
    private static SessionView session(long first, long last, WindowStatus status) {
        return new SessionView(WindowRef.sessionId(first), new Interval(first, last + 5), status);
    }

    private static SessionView open(long first, long last) {
        return session(first, last, WindowStatus.OPEN);
    }

    @Test
    void firstEventOpensSessionNamedByItsTime() {
        SessionPlan plan = SessionPlanner.plan(GAP, List.of(), List.of(100L));

        assertThat(plan.sessions()).containsExactly(
                new SessionPlan.Target(WindowRef.sessionId(100), true, new Interval(100, 105), List.of(), List.of(0)));
        assertThat(plan.flushed()).isEmpty();
    }

    @ParameterizedTest(name = "session [100,105) + event at {0}: joins={1}")
    @CsvSource({
            "104, true",   // end - 1 of the session
            "105, false",  // exactly gap after the last event: touching, so a new session
            "96, true",    // its coverage [96, 101) overlaps the session's start
            "95, false",   // exactly gap before the first event: its coverage [95, 100) only touches
    })
    void exactGapStartsANewSession(long t, boolean joins) {
        SessionView existing = open(100, 100);

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(existing), List.of(t));

        assertThat(plan.sessions()).hasSize(1);
        SessionPlan.Target target = plan.sessions().get(0);
        if (joins) {
            assertThat(target.windowId()).isEqualTo(existing.windowId());
            assertThat(target.created()).isFalse();
            assertThat(target.bounds()).isEqualTo(new Interval(Math.min(100, t), Math.max(105, t + 5)));
        } else {
            assertThat(target.windowId()).isEqualTo(WindowRef.sessionId(t));
            assertThat(target.created()).isTrue();
            assertThat(target.bounds()).isEqualTo(new Interval(t, t + 5));
        }
    }

    @Test
    void bridgingEventMergesSessionsIntoSmallestId() {
        SessionView early = open(100, 102);  // [100, 107)
        SessionView late = open(110, 120);   // [110, 125)

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(late, early), List.of(106L));  // [106, 111) overlaps both

        assertThat(plan.sessions()).containsExactly(new SessionPlan.Target(
                early.windowId(), false, new Interval(100, 125), List.of(late.windowId()), List.of(0)));
    }

    @Test
    void eventsInOneBatchChainIntoOneSessionNamedByEarliest() {
        SessionPlan plan = SessionPlanner.plan(GAP, List.of(), List.of(108L, 100L, 104L, 120L));

        assertThat(plan.sessions()).containsExactly(
                new SessionPlan.Target(WindowRef.sessionId(100), true, new Interval(100, 113), List.of(), List.of(0, 1, 2)),
                new SessionPlan.Target(WindowRef.sessionId(120), true, new Interval(120, 125), List.of(), List.of(3)));
    }

    @Test
    void untouchedSessionsAreNotInThePlan() {
        SessionPlan plan = SessionPlanner.plan(GAP, List.of(open(0, 0), open(100, 100)), List.of(101L));

        assertThat(plan.sessions()).extracting(SessionPlan.Target::windowId).containsExactly(WindowRef.sessionId(100));
    }

    @ParameterizedTest(name = "status {0}")
    @CsvSource({"CLOSED", "CLAIMED"})
    void eventInsideAFlushedSessionIsLateForIt(WindowStatus status) {
        SessionView flushed = session(100, 100, status);  // [100, 105), frozen

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(flushed), List.of(104L, 105L, 100L));

        assertThat(plan.flushed()).containsExactly(new SessionPlan.FlushedTarget(flushed.windowId(), List.of(0, 2)));
        assertThat(plan.sessions()).containsExactly(
                new SessionPlan.Target(WindowRef.sessionId(105), true, new Interval(105, 110), List.of(), List.of(1)));
    }

    @ParameterizedTest(name = "event at {0} before a session closed at [100, 105): a new session [{0}, {1})")
    @CsvSource({
            "96, 100",   // its coverage [96, 101) is clipped at the closed session's start: never a correction of it
            "99, 100",   // end - 1 before the closed start
            "95, 100",   // exactly gap before: the coverage [95, 100) only touches, nothing to clip
            "94, 99",    // the coverage ends before the closed session
    })
    void coverageIsClippedAtTheStartOfTheNextFlushedSession(long t, long end) {
        SessionView closed = session(100, 100, WindowStatus.CLOSED);

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(closed), List.of(t));

        assertThat(plan.flushed()).isEmpty();
        assertThat(plan.sessions()).containsExactly(
                new SessionPlan.Target(WindowRef.sessionId(t), true, new Interval(t, end), List.of(), List.of(0)));
    }

    @Test
    void anAcceptingSessionGrowsUpToAClosedNeighbourAndNoFurther() {
        SessionView open = open(90, 92);                              // [90, 97)
        SessionView closed = session(100, 100, WindowStatus.CLOSED);  // [100, 105)

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(open, closed), List.of(96L));  // [96, 101) clipped to [96, 100)

        assertThat(plan.sessions()).containsExactly(
                new SessionPlan.Target(open.windowId(), false, new Interval(90, 100), List.of(), List.of(0)));
        assertThat(plan.flushed()).isEmpty();
    }

    @ParameterizedTest(name = "session cut at its last event 100 (gap 5), new event at {0}: continues={1}")
    @CsvSource({
            "101, true",   // just after the cut
            "104, true",   // end - 1 of the gap the cut session would have had
            "105, false",  // exactly gap after its last event: an ordinary new session
    })
    void aNewSessionWithinTheGapAfterACutSessionContinuesIt(long t, boolean continues) {
        SessionView cut = new SessionView(WindowRef.sessionId(90), new Interval(90, 101), WindowStatus.CLOSED, 105);

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(cut), List.of(t, 100L));

        assertThat(plan.flushed()).containsExactly(new SessionPlan.FlushedTarget(cut.windowId(), List.of(1)));
        assertThat(plan.sessions()).containsExactly(new SessionPlan.Target(WindowRef.sessionId(t), true, new Interval(t, t + 5),
                List.of(), List.of(0), continues ? cut.windowId() : null));
    }

    @Test
    void flushedSessionWinsOverOpenSessionAndIsNeverBridged() {
        SessionView closed = session(100, 100, WindowStatus.CLOSED);  // [100, 105)
        SessionView open = open(108, 108);                            // [108, 113)

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(closed, open), List.of(104L));  // [104, 109) overlaps both

        assertThat(plan.flushed()).containsExactly(new SessionPlan.FlushedTarget(closed.windowId(), List.of(0)));
        assertThat(plan.sessions()).isEmpty();
    }

    @Test
    void eventOverlappingTwoFlushedSessionsGoesToTheEarlierOne() {
        SessionView first = session(100, 100, WindowStatus.CLOSED);  // [100, 105)
        SessionView second = session(107, 107, WindowStatus.CLOSED); // [107, 112)

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(second, first), List.of(103L));  // [103, 108)

        assertThat(plan.flushed()).containsExactly(new SessionPlan.FlushedTarget(first.windowId(), List.of(0)));
    }

    @Test
    void heldSessionsAcceptEventsAndMergedOnesAreIgnored() {
        SessionView held = session(100, 100, WindowStatus.HELD);
        SessionView merged = session(90, 103, WindowStatus.MERGED);

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(merged, held), List.of(103L));

        assertThat(plan.sessions()).containsExactly(
                new SessionPlan.Target(held.windowId(), false, new Interval(100, 108), List.of(), List.of(0)));
        assertThat(plan.flushed()).isEmpty();
    }

    @Test
    void duplicateEventTimesGoToTheSameSession() {
        SessionPlan plan = SessionPlanner.plan(GAP, List.of(), List.of(100L, 100L));

        assertThat(plan.sessions()).containsExactly(
                new SessionPlan.Target(WindowRef.sessionId(100), true, new Interval(100, 105), List.of(), List.of(0, 1)));
    }

    @Test
    void gapMustBePositive() {
        assertThatThrownBy(() -> SessionPlanner.plan(Duration.ZERO, List.of(), List.of(1L))).isInstanceOf(IllegalArgumentException.class);
    }
}
