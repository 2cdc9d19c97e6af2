package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.machine.EventOutcome.Disposition;
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
 * A time window under {@code onOverflow: split} whose revision closed full, not by the size bound (docs/SEMANTICS.md,
 * "Revisions and the aggregate id"): a correction of it could hold no more, so it refused every later event (RETRY)
 * until the event was too late, also the rest of the very batch that filled it as its end passed (a backlog). Now its
 * late events continue it in a revision of their own, emitted with the reason of the window's close and its
 * completeness, correcting nothing; a correction already waiting is emitted first and loses nothing.
 *
 * <p>The window: the fixture's tumbling minute [T0, T0+60 s), at most 3 events per revision, lateness 30 s,
 * correction delay 5 s, lease 30 s; the watermark trails processing time by 5 s.
 */
class FullRevisionContinuationTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(T0.toEpochMilli()));

    private static long watermarkAt(Instant now) {
        return now.toEpochMilli() - 5_000;
    }

    private static WindowMachine machine(PipelineFixture pipeline) {
        return new WindowMachine(pipeline.build(), LEASE);
    }

    private static List<Event> events(String prefix, int n) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            events.add(event(prefix + i, T0.toEpochMilli() + 1_000L * i));
        }
        return events;
    }

    private WindowState open(WindowMachine m) {
        return m.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
    }

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).as("the step writes").isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    private static WindowState committed(WindowMachine m, WindowState claimed, Instant now) {
        assertThat(claimed.status()).isEqualTo(WindowStatus.CLAIMED);
        return stored(m.commit(claimed, claimed.fence(), watermarkAt(now), now), claimed);
    }

    /** Offers {@code events} at {@code now} and returns what was stored. */
    private static WindowState offered(WindowMachine m, WindowState w, List<Event> events, Instant now) {
        return stored(m.ingest(w, events, watermarkAt(now), now), w);
    }

    /** The claim a visit makes once the late events' delay has passed. */
    private static JsonNode claimedAfterDelay(WindowMachine m, WindowState pending, Instant due) {
        Transition t = m.tick(pending, watermarkAt(due), due);
        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
        return t.next().claim().emission();
    }

    @Test
    void theRestOfABacklogBatchThatFilledTheWindowAsItsEndPassedContinuesItOnceTheRevisionCommits() {
        WindowMachine m = machine(PipelineFixture.pipeline().maxEventsPerWindow(3));
        Instant backlog = T0.plusSeconds(70);
        List<Event> batch = events("e", 5);

        Transition first = m.ingest(open(m), batch, watermarkAt(backlog), backlog);

        assertThat(first.outcomes()).extracting(EventOutcome::disposition).containsExactly(Disposition.ACCEPTED_LATE,
                Disposition.ACCEPTED_LATE, Disposition.ACCEPTED_LATE, Disposition.RETRY, Disposition.RETRY);
        WindowState claimed = stored(first, open(m));
        assertThat(claimed.claim().reason()).as("the end passed first: no split").isEqualTo(CloseReason.WATERMARK);
        List<Event> rest = batch.subList(3, 5);
        assertThat(m.ingest(claimed, rest, watermarkAt(backlog), backlog).outcomes()).as("while the full revision is emitted")
                .extracting(EventOutcome::disposition).containsOnly(Disposition.RETRY);

        WindowState r0 = committed(m, claimed, backlog.plusSeconds(1));
        Instant redelivered = backlog.plusSeconds(5);
        Transition again = m.ingest(r0, rest, watermarkAt(redelivered), redelivered);

        assertThat(again.outcomes()).extracting(EventOutcome::disposition).containsOnly(Disposition.CORRECTION);
        JsonNode r1 = claimedAfterDelay(m, stored(again, r0), redelivered.plusSeconds(5));
        assertThat(r1.path("revision").asInt()).isEqualTo(1);
        assertThat(r1.path("closeReason").asText()).isEqualTo("WATERMARK");
        assertThat(r1.path("corrects").isNull()).as("adds to r0, replaces nothing").isTrue();
        assertThat(r1.path("complete").asBoolean()).isTrue();
        assertThat(r1.path("aggregations").path("count").asInt()).as("its own events only").isEqualTo(2);
        assertThat(r1.path("firstEventTime").asText()).isEqualTo("2026-11-29T10:00:03.000Z");
    }

    @Test
    void aCorrectionWaitingWhenTheWindowFillsIsEmittedFirstAndTheContinuationKeepsTheWindowsCloseReason() {
        WindowMachine m = machine(PipelineFixture.pipeline().maxEventsPerWindow(3));
        Instant early = T0.plusSeconds(5);
        WindowState two = offered(m, open(m), events("e", 2), early);
        Instant pastEnd = T0.plusSeconds(66);
        WindowState r0 = committed(m, stored(m.tick(two, watermarkAt(pastEnd), pastEnd), two), pastEnd);

        Instant late = T0.plusSeconds(70);
        Event fills = event("late-0", T0.toEpochMilli() + 40_000);
        Event waits = event("late-1", T0.toEpochMilli() + 41_000);
        WindowState pending = offered(m, r0, List.of(fills), late);
        Transition full = m.ingest(pending, List.of(waits), watermarkAt(late), late);
        assertThat(full.outcomes()).extracting(EventOutcome::disposition).as("nothing pending is dropped for it").containsOnly(Disposition.RETRY);

        Instant due = late.plusSeconds(5);
        Transition correcting = m.tick(pending, watermarkAt(due), due);
        JsonNode r1 = correcting.next().claim().emission();
        assertThat(r1.path("closeReason").asText()).isEqualTo("LATE_CORRECTION");
        assertThat(r1.path("corrects").asText()).isEqualTo(ref.aggregateId(0));
        assertThat(r1.path("aggregations").path("count").asInt()).isEqualTo(3);

        WindowState r1Committed = committed(m, stored(correcting, pending), due);
        Instant redelivered = due.plusSeconds(2);
        Transition continued = m.ingest(r1Committed, List.of(fills, waits), watermarkAt(redelivered), redelivered);
        assertThat(continued.outcomes()).extracting(EventOutcome::disposition).containsExactly(Disposition.DUPLICATE, Disposition.CORRECTION);
        JsonNode r2 = claimedAfterDelay(m, stored(continued, r1Committed), redelivered.plusSeconds(5));
        assertThat(r2.path("revision").asInt()).isEqualTo(2);
        assertThat(r2.path("closeReason").asText()).as("the close the correction corrected").isEqualTo("WATERMARK");
        assertThat(r2.path("corrects").isNull()).isTrue();
        assertThat(r2.path("aggregations").path("count").asInt()).isEqualTo(1);
    }

    @Test
    void theContinuationOfAWindowAnOperatorCutShortIsFlaggedIncomplete() {
        WindowMachine m = machine(PipelineFixture.pipeline().maxEventsPerWindow(3));
        Instant early = T0.plusSeconds(5);
        WindowState two = offered(m, open(m), events("e", 2), early);
        Instant closing = T0.plusSeconds(10);
        WindowState r0 = committed(m, stored(m.closeByOperator(two, "draining", watermarkAt(closing), closing), two), closing);
        Instant more = T0.plusSeconds(20);
        WindowState pending = offered(m, r0, List.of(event("f0", T0.toEpochMilli() + 15_000)), more);
        Instant due = more.plusSeconds(5);
        Transition correcting = m.tick(pending, watermarkAt(due), due);
        WindowState r1 = committed(m, stored(correcting, pending), due);

        Instant after = due.plusSeconds(1);
        WindowState continued = offered(m, r1, List.of(event("f1", T0.toEpochMilli() + 16_000)), after);
        JsonNode r2 = claimedAfterDelay(m, continued, after.plusSeconds(5));

        assertThat(r2.path("closeReason").asText()).isEqualTo("OPERATOR");
        assertThat(r2.path("complete").asBoolean()).as("the window was cut short").isFalse();
        assertThat(r2.path("corrects").isNull()).isTrue();
    }

    @Test
    void theContinuationKeepsTheWindowsCompletenessNotAFreshOne() {
        WindowMachine m = machine(PipelineFixture.pipeline().maxEventsPerWindow(3).expected(new ExpectedSpec(3, null, null, 0)));
        Instant now = T0.plusSeconds(5);
        WindowState claimed = offered(m, open(m), events("e", 3), now);
        assertThat(claimed.claim().reason()).isEqualTo(CloseReason.EXPECTED_COMPLETE);
        WindowState r0 = committed(m, claimed, now);

        Instant extra = now.plusSeconds(1);
        Transition late = m.ingest(r0, List.of(event("x", T0.toEpochMilli() + 10_000)), watermarkAt(extra), extra);

        assertThat(late.outcomes()).extracting(EventOutcome::disposition).containsOnly(Disposition.CORRECTION);
        JsonNode r1 = claimedAfterDelay(m, stored(late, r0), extra.plusSeconds(5));
        assertThat(r1.path("closeReason").asText()).isEqualTo("EXPECTED_COMPLETE");
        assertThat(r1.path("complete").asBoolean()).as("every expected event came").isTrue();
        assertThat(r1.path("seen").asInt()).as("seen counts the window since it opened").isEqualTo(4);
        assertThat(r1.path("aggregations").path("count").asInt()).isEqualTo(1);
    }

    /**
     * A full revision held incomplete and dead-lettered at its hard deadline never reached the target: its late events
     * are no part to add to it (a review found one emitted as HARD_LIFETIME, corrects null, complete, count 1). They
     * wait, as before this continuation existed.
     */
    @Test
    void aFullRevisionDeadLetteredAtItsDeadlineHasNoContinuation() {
        WindowMachine m = machine(PipelineFixture.pipeline().maxEventsPerWindow(4)
                .expected(new ExpectedSpec(4, null, PipelineFixture.path("$.m"), 0))
                .incomplete(IncompletePolicy.Mode.HOLD, IncompletePolicy.AtDeadline.DEAD_LETTER));
        long t0 = T0.toEpochMilli();
        List<Event> fourOfThreeMembers = List.of(event("a", t0 + 1_000, "{\"m\":0}"), event("b", t0 + 2_000, "{\"m\":0}"),
                event("c", t0 + 3_000, "{\"m\":1}"), event("d", t0 + 4_000, "{\"m\":2}"));
        WindowState held = stored(m.ingest(open(m), fourOfThreeMembers, t0 + 65_000, T0.plusSeconds(70)), open(m));
        assertThat(held.status()).isEqualTo(WindowStatus.HELD);
        long stalled = t0 + 70_000;
        WindowState claimed = stored(m.tick(held, stalled, held.hardDeadline()), held);
        assertThat(claimed.claim().deadLetter()).isTrue();
        WindowState r0 = stored(m.commit(claimed, claimed.fence(), stalled, held.hardDeadline()), claimed);

        Transition late = m.ingest(r0, List.of(event("e", t0 + 5_000, "{\"m\":3}")), stalled, held.hardDeadline().plusSeconds(10));

        assertThat(r0.closedUnemitted()).isNull();
        assertThat(late.outcomes()).extracting(EventOutcome::disposition).containsOnly(Disposition.RETRY);
    }

    @Test
    void aWindowThatClosedWithRoomTakesCorrectionsAsBefore() {
        WindowMachine m = machine(PipelineFixture.pipeline().maxEventsPerWindow(3));
        WindowState two = offered(m, open(m), events("e", 2), T0.plusSeconds(5));
        Instant pastEnd = T0.plusSeconds(66);
        WindowState r0 = committed(m, stored(m.tick(two, watermarkAt(pastEnd), pastEnd), two), pastEnd);

        assertThat(r0.closedUnemitted()).isNull();
        assertThat(r0.closedBy()).isEqualTo(CloseReason.WATERMARK);
        assertThat(r0.revisionEvents()).isEqualTo(2);
    }

    @Test
    void aFullRevisionsContinuationRoundTripsThroughTheStoredState() {
        PipelineConfig config = PipelineFixture.pipeline().maxEventsPerWindow(3).build();
        WindowMachine m = new WindowMachine(config, LEASE);
        Instant backlog = T0.plusSeconds(70);
        WindowState r0 = committed(m, stored(m.ingest(open(m), events("e", 3), watermarkAt(backlog), backlog), open(m)), backlog);

        WindowState decoded = WindowCodec.decode(WindowCodec.encode(r0), config);

        assertThat(decoded.closedUnemitted()).isEqualTo(CloseReason.WATERMARK);
        assertThat(decoded.closedBy()).isEqualTo(CloseReason.WATERMARK);
        assertThat(decoded.revisionEvents()).isZero();
        assertThat(decoded.eventIds()).as("kept for dedupe").hasSize(3);
    }
}
