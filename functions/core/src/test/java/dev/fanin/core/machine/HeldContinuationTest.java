package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.event.Event;
import dev.fanin.core.machine.EventOutcome.Disposition;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Under {@code incomplete: hold}, the revision after a SIZE_LIMIT split is held while incomplete, whether its first
 * event came before a visit closed the empty continuation (it was OPEN, then HELD) or after (it was CLOSED, and the
 * event is that revision's): the same emission at the same time either way. Before, the second order fired the
 * revision, flagged, as soon as the correction delay passed: an incomplete firing decided by a sweep's timing.
 *
 * <p>The window: the fixture's tumbling minute [T0, T0+60 s), at most 3 events per revision, members 0, 1 and 2
 * expected ({@code $.m}), lateness 30 s, hard deadline an hour after it opened; the watermark trails processing
 * time by 5 s.
 */
class HeldContinuationTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final WindowRef REF = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(T0.toEpochMilli()));

    private final WindowMachine m = new WindowMachine(PipelineFixture.pipeline().maxEventsPerWindow(3)
            .expected(new ExpectedSpec(3, null, PipelineFixture.path("$.m"), 0))
            .incomplete(IncompletePolicy.Mode.HOLD, IncompletePolicy.AtDeadline.FIRE_FLAGGED).build(), Duration.ofSeconds(30));

    @ParameterizedTest(name = "a visit closed the empty continuation first: {0}")
    @ValueSource(booleans = {false, true})
    void theRevisionAfterASplitIsHeldToTheDeadlineWhicheverCameFirst(boolean closedEmptyFirst) {
        Instant early = T0.plusSeconds(5);
        WindowState claimed = offered(open(), List.of(member("a", 0), member("b", 0), member("c", 0)), early);
        assertThat(claimed.claim().reason()).isEqualTo(CloseReason.SIZE_LIMIT);
        WindowState continuation = stored(m.commit(claimed, claimed.fence(), watermarkAt(early), early), claimed);
        if (closedEmptyFirst) {
            Instant pastEnd = T0.plusSeconds(70);
            continuation = stored(m.tick(continuation, watermarkAt(pastEnd), pastEnd), continuation);
            assertThat(continuation.status()).isEqualTo(WindowStatus.CLOSED);
            assertThat(continuation.closedUnemitted()).isEqualTo(CloseReason.WATERMARK);
        }

        Instant late = T0.plusSeconds(80);
        Transition first = m.ingest(continuation, List.of(member("d", 1)), watermarkAt(late), late);
        assertThat(first.action()).as("held, with the alert").isEqualTo(Transition.Action.HELD);
        WindowState held = stored(first, continuation);
        assertThat(held.dueAt()).isEqualTo(held.hardDeadline()).isEqualTo(T0.plus(Duration.ofHours(1)));

        Instant pastLateness = T0.plusSeconds(200);
        Transition missing = m.ingest(held, List.of(member("e", 2)), watermarkAt(pastLateness), pastLateness);
        assertThat(missing.outcomes()).extracting(EventOutcome::disposition).as("a missing member, past the lateness")
                .doesNotContain(Disposition.TOO_LATE);
        held = stored(missing, held);
        Instant meanwhile = T0.plusSeconds(600);
        assertThat(m.tick(held, watermarkAt(meanwhile), meanwhile).write()).as("a visit before the deadline").isFalse();

        Transition deadline = m.tick(held, watermarkAt(held.hardDeadline()), held.hardDeadline());
        assertThat(deadline.action()).isEqualTo(Transition.Action.EMIT);
        JsonNode r1 = deadline.next().claim().emission();
        assertThat(r1.path("revision").asInt()).isEqualTo(1);
        assertThat(r1.path("closeReason").asText()).isEqualTo("HARD_LIFETIME");
        assertThat(r1.path("complete").asBoolean()).as("member 0 never came to this revision").isFalse();
        assertThat(r1.path("aggregations").path("count").asInt()).isEqualTo(2);
        assertThat(r1.path("corrects").isNull()).isTrue();
    }

    /** Four late events where three fit: those that fit are held either way (the closed order threw, a review). */
    @ParameterizedTest(name = "a visit closed the empty continuation first: {0}")
    @ValueSource(booleans = {false, true})
    void aFirstLateBatchLargerThanTheRevisionIsHeldWhicheverCameFirst(boolean closedEmptyFirst) {
        Instant late = T0.plusSeconds(80);
        Transition t = m.ingest(continuation(closedEmptyFirst), List.of(member("d", 1), member("e", 1), member("f", 2), member("g", 2)),
                watermarkAt(late), late);

        assertThat(t.action()).isEqualTo(Transition.Action.HELD);
        assertThat(t.outcomes()).extracting(EventOutcome::disposition).filteredOn(d -> d == Disposition.RETRY).hasSize(1);
    }

    /** An operator releases the held revision whichever came first (a review: the closed one was "closed already"). */
    @ParameterizedTest(name = "a visit closed the empty continuation first: {0}")
    @ValueSource(booleans = {false, true})
    void anOperatorReleasesTheHeldRevisionWhicheverCameFirst(boolean closedEmptyFirst) {
        WindowState continuation = continuation(closedEmptyFirst);
        Instant late = T0.plusSeconds(80);
        WindowState held = stored(m.ingest(continuation, List.of(member("d", 1)), watermarkAt(late), late), continuation);
        Instant release = T0.plusSeconds(300);

        Transition closed = m.closeByOperator(held, "release", watermarkAt(release), release);

        assertThat(closed.action()).isEqualTo(Transition.Action.EMIT);
        assertThat(closed.next().claim().reason()).isEqualTo(CloseReason.OPERATOR);
        assertThat(closed.next().holdsSlot()).as("its slot was returned when it closed empty, or is held by the claim").isEqualTo(!closedEmptyFirst);
    }

    /** An operator who closed the empty continuation said not to wait: its late events are not held to the deadline. */
    @org.junit.jupiter.api.Test
    void lateEventsAfterAnOperatorClosedTheEmptyContinuationGoAsCorrectionsDo() {
        WindowState continuation = continuation(false);
        Instant op = T0.plusSeconds(30);
        continuation = stored(m.closeByOperator(continuation, "done", watermarkAt(op), op), continuation);
        assertThat(continuation.closedUnemitted()).isEqualTo(CloseReason.OPERATOR);
        Instant late = T0.plusSeconds(80);

        Transition t = m.ingest(continuation, List.of(member("d", 1)), watermarkAt(late), late);

        assertThat(t.action()).isEqualTo(Transition.Action.NONE);
        assertThat(t.next().dueAt()).as("after the correction delay, on the 10 s grid").isBetween(late.plusSeconds(5), late.plusSeconds(15));
    }

    /** The revision after a split of members 0, 0, 0; closed empty by a visit past its end first, if so asked. */
    private WindowState continuation(boolean closedEmptyFirst) {
        Instant early = T0.plusSeconds(5);
        WindowState claimed = offered(open(), List.of(member("a", 0), member("b", 0), member("c", 0)), early);
        WindowState continuation = stored(m.commit(claimed, claimed.fence(), watermarkAt(early), early), claimed);
        if (!closedEmptyFirst) {
            return continuation;
        }
        Instant pastEnd = T0.plusSeconds(70);
        return stored(m.tick(continuation, watermarkAt(pastEnd), pastEnd), continuation);
    }

    private WindowState open() {
        return m.open(REF, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
    }

    private WindowState offered(WindowState w, List<Event> events, Instant now) {
        return stored(m.ingest(w, events, watermarkAt(now), now), w);
    }

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).as("the step writes").isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    private static Event member(String id, int member) {
        return event(id, T0.toEpochMilli() + 1_000, "{\"m\":" + member + "}");
    }

    private static long watermarkAt(Instant now) {
        return now.toEpochMilli() - 5_000;
    }
}
