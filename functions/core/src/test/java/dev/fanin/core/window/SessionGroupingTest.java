package dev.fanin.core.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the planner groups events with a long session that covers them (gap 5 ms). */
class SessionGroupingTest {

    private static final Duration GAP = Duration.ofMillis(5);

    @Test
    void eventsInsideALongSessionAllJoinItHoweverFarApartTheyAre() {
        SessionView longSession = new SessionView(WindowRef.sessionId(0), new Interval(0, 100), WindowStatus.OPEN);

        SessionPlan plan = SessionPlanner.plan(GAP, List.of(longSession), List.of(10L, 50L, 90L));

        assertThat(plan.sessions()).containsExactly(
                new SessionPlan.Target(WindowRef.sessionId(0), false, new Interval(0, 100), List.of(), List.of(0, 1, 2)));
    }

    @Test
    void aSessionListsItsEventsByIndexAscendingWhateverTheirTimes() {
        SessionPlan plan = SessionPlanner.plan(GAP, List.of(), List.of(12L, 10L));

        assertThat(plan.sessions()).singleElement().extracting(SessionPlan.Target::eventIndexes).isEqualTo(List.of(0, 1));
    }

    @Test
    void aGapOfZeroIsRefusedByName() {
        assertThatThrownBy(() -> SessionPlanner.plan(Duration.ZERO, List.of(), List.of(1L)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session gap must be at least 1 ms");
    }
}
