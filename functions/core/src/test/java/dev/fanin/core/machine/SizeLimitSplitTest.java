package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.Condition;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.SentinelSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A time window's split at {@code bounds.maxEventsPerWindow} (docs/SEMANTICS.md, "Window life cycle"): the full
 * revision is claimed as soon as it is full, also in the middle of a batch, and the next one counts at once, also
 * while the split's emission is pending or its claimer crashed (issue 17: under {@code --crash-rate 0.3} such events
 * waited in SQS for the lease and some outlived the window's hard deadline). Only a next revision that fills too
 * before the split commits makes an event wait.
 *
 * <p>The window: the fixture's tumbling minute [T0, T0+60 s), at most 3 events per revision, lease 30 s; the watermark
 * trails processing time by 5 s.
 */
class SizeLimitSplitTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final WindowMachine machine = new WindowMachine(PipelineFixture.pipeline().maxEventsPerWindow(3).build(), LEASE);
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(T0.toEpochMilli()));

    private static long watermarkAt(Instant now) {
        return now.toEpochMilli() - 5_000;
    }

    private static List<Event> events(String prefix, int n) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            events.add(event(prefix + i, T0.toEpochMilli() + 1_000L * i));
        }
        return events;
    }

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).as("the step writes").isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    @Test
    void aBatchOverTheBoundClaimsTheFullRevisionAndCountsTheRestInTheNext() {
        WindowState open = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
        Instant now = T0.plusSeconds(5);

        Transition t = machine.ingest(open, events("e", 5), watermarkAt(now), now);

        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
        assertThat(t.outcomes()).extracting(EventOutcome::disposition).containsOnly(EventOutcome.Disposition.ACCEPTED);
        WindowState claimed = t.next();
        assertThat(claimed.status()).isEqualTo(WindowStatus.CLAIMED);
        assertThat(claimed.claim().reason()).isEqualTo(CloseReason.SIZE_LIMIT);
        assertThat(claimed.claim().emission().path("seen").asInt()).as("the claimed revision").isEqualTo(3);
        assertThat(claimed.revisionEvents()).as("the next revision, counting already").isEqualTo(2);
    }

    @Test
    void eventsCountInTheNextRevisionWhileTheSplitIsPendingAndTheCommitReopensWithThem() {
        WindowState open = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
        Instant now = T0.plusSeconds(5);
        WindowState claimed = stored(machine.ingest(open, events("e", 3), watermarkAt(now), now), open);
        assertThat(claimed.status()).isEqualTo(WindowStatus.CLAIMED);

        // The claimer crashed before emitting: events keep coming before the lease ends.
        Instant later = now.plusSeconds(10);
        Transition during = machine.ingest(claimed, List.of(event("f0", T0.toEpochMilli() + 20_000), event("f1", T0.toEpochMilli() + 21_000)),
                watermarkAt(later), later);
        assertThat(during.outcomes()).extracting(EventOutcome::disposition).containsOnly(EventOutcome.Disposition.ACCEPTED);
        WindowState pending = stored(during, claimed);
        assertThat(pending.claim()).as("the frozen emission is untouched").isEqualTo(claimed.claim());

        // The takeover re-emits the same revision, and its commit reopens the window with what came meanwhile.
        Instant afterLease = now.plus(LEASE).plusSeconds(1);
        WindowState taken = stored(machine.tick(pending, watermarkAt(afterLease), afterLease), pending);
        assertThat(taken.claim().emission()).isEqualTo(claimed.claim().emission());
        WindowState reopened = stored(machine.commit(taken, taken.fence(), watermarkAt(afterLease), afterLease), taken);
        assertThat(reopened.status()).isEqualTo(WindowStatus.OPEN);
        assertThat(reopened.revision()).isEqualTo(1);
        assertThat(reopened.revisionEvents()).isEqualTo(2);
        assertThat(reopened.eventIds()).hasSize(5);
    }

    @Test
    void onlyANextRevisionThatFillsBeforeTheSplitCommitsMakesAnEventWait() {
        WindowState open = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
        Instant now = T0.plusSeconds(7);

        Transition t = machine.ingest(open, events("e", 7), watermarkAt(now), now);

        assertThat(t.outcomes()).extracting(EventOutcome::disposition).containsExactly(
                EventOutcome.Disposition.ACCEPTED, EventOutcome.Disposition.ACCEPTED, EventOutcome.Disposition.ACCEPTED,
                EventOutcome.Disposition.ACCEPTED, EventOutcome.Disposition.ACCEPTED, EventOutcome.Disposition.ACCEPTED,
                EventOutcome.Disposition.RETRY);
        assertThat(t.next().claim().emission().path("seen").asInt()).isEqualTo(3);
        assertThat(t.next().revisionEvents()).isEqualTo(3);
    }

    /**
     * A continuation that counted nothing closes without emitting; a late event for it later is that revision, emitted
     * as it closed (corrects nothing), not a correction of the split revision, which would replace r0's events with
     * its one (a review found exactly that: r1 LATE_CORRECTION corrects r0, seen 1).
     */
    @Test
    void lateEventsOfAContinuationClosedEmptyAreThatRevisionNotACorrectionOfTheSplit() {
        WindowState closedEmpty = continuationClosedEmpty();
        assertThat(closedEmpty.status()).isEqualTo(WindowStatus.CLOSED);

        Instant late = T0.plusSeconds(80);
        WindowState pending = stored(machine.ingest(closedEmpty, List.of(event("late", T0.toEpochMilli() + 30_000)), watermarkAt(late), late),
                closedEmpty);
        Instant due = late.plusSeconds(6);
        Transition claim = machine.tick(pending, watermarkAt(due), due);

        assertThat(claim.action()).isEqualTo(Transition.Action.EMIT);
        assertThat(claim.next().claim().emission().path("revision").asInt()).isEqualTo(1);
        assertThat(claim.next().claim().emission().path("closeReason").asText()).isEqualTo("WATERMARK");
        assertThat(claim.next().claim().emission().path("corrects").isNull()).as("corrects nothing").isTrue();
        assertThat(claim.next().claim().emission().path("seen").asInt()).isEqualTo(1);

        // Once emitted, the continuation's own late events correct it, cumulatively.
        WindowState r1 = stored(claim, pending);
        WindowState committed = stored(machine.commit(r1, r1.fence(), watermarkAt(due), due), r1);
        assertThat(committed.closedUnemitted()).isNull();
        Instant later = due.plusSeconds(1);
        WindowState again = stored(machine.ingest(committed, List.of(event("later", T0.toEpochMilli() + 31_000)), watermarkAt(later), later),
                committed);
        Instant dueAgain = later.plusSeconds(6);
        WindowState correction = machine.tick(again, watermarkAt(dueAgain), dueAgain).next();
        assertThat(correction.claim().emission().path("closeReason").asText()).isEqualTo("LATE_CORRECTION");
        assertThat(correction.claim().emission().path("corrects").asText()).isEqualTo(ref.aggregateId(1));
        assertThat(correction.claim().emission().path("seen").asInt()).isEqualTo(2);
    }

    /** A full revision of three events split off by {@code m} at {@code now} and committed: the continuation, empty and open. */
    private WindowState splitAndCommitted(WindowMachine m, Instant now) {
        WindowState open = m.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
        WindowState claimed = stored(m.ingest(open, events("e", 3), watermarkAt(now), now), open);
        return stored(m.commit(claimed, claimed.fence(), watermarkAt(now), now), claimed);
    }

    /** A full revision split off and committed, then its continuation, empty, closed by the watermark past the end. */
    private WindowState continuationClosedEmpty() {
        Instant now = T0.plusSeconds(5);
        WindowState reopened = splitAndCommitted(machine, now);
        Instant pastEnd = T0.plusSeconds(70);
        Transition closing = machine.tick(reopened, watermarkAt(pastEnd), pastEnd);
        assertThat(closing.action()).as("nothing to emit").isEqualTo(Transition.Action.NONE);
        return stored(closing, reopened);
    }

    @Test
    void anUnemittedCloseRoundTripsThroughTheStoredState() {
        WindowState closedEmpty = continuationClosedEmpty();

        WindowState decoded = WindowCodec.decode(WindowCodec.encode(closedEmpty), PipelineFixture.pipeline().maxEventsPerWindow(3).build());

        assertThat(decoded.closedUnemitted()).isEqualTo(CloseReason.WATERMARK);
    }

    /** A sentinel that does not count, alone in a continuation, is the completion the consumer waits for: emitted. */
    @Test
    void aContinuationHoldingOnlyASentinelIsEmittedAsCompleteNotClosedEmpty() {
        WindowMachine sentinel = new WindowMachine(PipelineFixture.pipeline().maxEventsPerWindow(3).sentinel(new SentinelSpec(
                new Condition(PipelineFixture.path("$.type"), "done", null, null, null), null, false)).build(), LEASE);
        Instant now = T0.plusSeconds(5);
        WindowState reopened = splitAndCommitted(sentinel, now);

        Transition done = sentinel.ingest(reopened, List.of(event("z", T0.toEpochMilli() + 10_000, "{\"type\":\"done\"}")),
                watermarkAt(now), now);

        assertThat(done.action()).isEqualTo(Transition.Action.EMIT);
        assertThat(done.next().claim().emission().path("revision").asInt()).isEqualTo(1);
        assertThat(done.next().claim().emission().path("closeReason").asText()).isEqualTo("SENTINEL");
        assertThat(done.next().claim().emission().path("complete").asBoolean()).isTrue();
        assertThat(done.next().claim().emission().path("seen").asInt()).isZero();
    }

    /**
     * Under {@code incomplete: hold} an empty continuation closes unemitted too: it was held, then dead-lettered at the
     * hard deadline as an empty revision (seen 0, all missing), firing WindowsDeadLettered (a review).
     */
    @Test
    void anEmptyContinuationUnderHoldClosesUnemittedNotHeldAndDeadLettered() {
        WindowMachine hold = new WindowMachine(PipelineFixture.pipeline().maxEventsPerWindow(3).expected(new ExpectedSpec(5, null, null, 0))
                .incomplete(IncompletePolicy.Mode.HOLD, IncompletePolicy.AtDeadline.DEAD_LETTER).build(), LEASE);
        Instant now = T0.plusSeconds(5);
        WindowState reopened = splitAndCommitted(hold, now);

        Instant pastEnd = T0.plusSeconds(70);
        Transition visit = hold.tick(reopened, watermarkAt(pastEnd), pastEnd);

        assertThat(visit.action()).isEqualTo(Transition.Action.NONE);
        assertThat(visit.next().status()).isEqualTo(WindowStatus.CLOSED);
    }
}
