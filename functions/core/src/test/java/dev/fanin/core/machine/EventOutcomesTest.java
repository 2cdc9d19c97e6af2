package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.Condition;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.IncompletePolicy.AtDeadline;
import dev.fanin.core.config.IncompletePolicy.Mode;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SentinelSpec;
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

/**
 * What the machine does with each event offered to a window (docs/SEMANTICS.md, "Lateness" and "Window life cycle"):
 * the disposition per event, in the order offered, and what is counted. The window: the fixture's tumbling minute
 * [T0, T0+60 s), allowed lateness 30 s.
 */
class EventOutcomesTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final long END = T0.toEpochMilli() + 60_000;
    private static final Duration LEASE = Duration.ofSeconds(30);
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(T0.toEpochMilli()));

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    private WindowState open(WindowMachine m) {
        return m.open(ref, new Interval(T0.toEpochMilli(), END), T0);
    }

    private static List<Disposition> dispositions(Transition t) {
        return t.outcomes().stream().map(EventOutcome::disposition).toList();
    }

    @Test
    void outcomesComeInTheOrderOfferedAndTheEarliestOfTwoEventsWithOneIdCounts() {
        WindowMachine m = new WindowMachine(PipelineFixture.pipeline().build(), LEASE);

        Transition t = m.ingest(open(m), List.of(event("x", T0.toEpochMilli() + 9), event("y", T0.toEpochMilli() + 5),
                event("x", T0.toEpochMilli() + 1)), T0.toEpochMilli(), T0);

        assertThat(dispositions(t)).containsExactly(Disposition.DUPLICATE, Disposition.ACCEPTED, Disposition.ACCEPTED);
        assertThat(t.outcomes().get(2).event().eventTime()).isEqualTo(Instant.ofEpochMilli(T0.toEpochMilli() + 1));
        assertThat(t.next().firstEventTime()).isEqualTo(Instant.ofEpochMilli(T0.toEpochMilli() + 1));
        assertThat(t.next().lastEventTime()).isEqualTo(Instant.ofEpochMilli(T0.toEpochMilli() + 5));
    }

    /** Late by the watermark, the window still OPEN: counted late (end-1 on time; end and end+lateness-1 late; then too late). */
    @ParameterizedTest(name = "watermark end{0} -> {1}")
    @CsvSource({"-1, ACCEPTED, 0", "+0, ACCEPTED_LATE, 1", "+29999, ACCEPTED_LATE, 1", "+30000, TOO_LATE, 0"})
    void lateEventsOfAnOpenWindow(long afterEnd, Disposition disposition, long lateEvents) {
        WindowMachine m = new WindowMachine(PipelineFixture.pipeline().build(), LEASE);
        WindowState s = stored(m.ingest(open(m), List.of(event("e1", T0.toEpochMilli())), T0.toEpochMilli(), T0), open(m));

        Transition t = m.ingest(s, List.of(event("e2", T0.toEpochMilli() + 1)), END + afterEnd, T0.plusSeconds(70));

        assertThat(dispositions(t)).containsExactly(disposition);
        assertThat(t.next().lateEvents()).isEqualTo(lateEvents);
    }

    /**
     * Under fire-and-reconcile a closed window that is still incomplete takes its missing events as corrections even
     * beyond the allowed lateness; once complete, or under fire-partial, such an event is too late.
     */
    @ParameterizedTest(name = "{0}, {1} of 3 when it closed -> {2}")
    @CsvSource({"FIRE_AND_RECONCILE, 2, CORRECTION", "FIRE_AND_RECONCILE, 3, TOO_LATE", "FIRE_PARTIAL, 2, TOO_LATE"})
    void reconcilingTakesTheMissingEventsBeyondLateness(Mode mode, int seen, Disposition disposition) {
        WindowMachine m = threeExpected(mode);
        WindowState fresh = open(m);
        WindowState claimed = stored(m.ingest(fresh, firstEvents(seen), END, T0.plusSeconds(65)), fresh);
        WindowState closed = stored(m.commit(claimed, claimed.fence(), END, T0.plusSeconds(66)), claimed);

        Transition t = m.ingest(closed, List.of(event("late", T0.toEpochMilli() + 10)), END + 3_600_000, T0.plusSeconds(600));

        assertThat(dispositions(t)).containsExactly(disposition);
    }

    /**
     * The same before its close: a stored OPEN window whose end and lateness the watermark passed before any visit
     * fired it takes a missing event into the revision it is about to fire under fire-and-reconcile (it was sent to
     * the side output, and the window fired incomplete and stayed so); under fire-partial, too late.
     */
    @ParameterizedTest(name = "{0}, {1} of 3 stored -> {2}")
    @CsvSource({"FIRE_AND_RECONCILE, 2, ACCEPTED_LATE", "FIRE_PARTIAL, 2, TOO_LATE"})
    void reconcilingTakesTheMissingEventsOfAnOpenWindowPastItsLateness(Mode mode, int seen, Disposition disposition) {
        WindowMachine m = threeExpected(mode);
        WindowState fresh = open(m);
        WindowState stored = stored(m.ingest(fresh, firstEvents(seen), T0.toEpochMilli(), T0), fresh);
        assertThat(stored.status()).isEqualTo(WindowStatus.OPEN);

        Transition t = m.ingest(stored, List.of(event("late", T0.toEpochMilli() + 10)), END + 30_000, T0.plusSeconds(91));

        assertThat(dispositions(t)).containsExactly(disposition);
    }

    /** Three events expected per window, under {@code mode}. */
    private static WindowMachine threeExpected(Mode mode) {
        return new WindowMachine(PipelineFixture.pipeline().expected(new ExpectedSpec(3, null, null, 0))
                .incomplete(mode, AtDeadline.FIRE_FLAGGED).build(), LEASE);
    }

    /** Events e0.. at T0, T0+1ms, ... */
    private static List<dev.fanin.core.event.Event> firstEvents(int n) {
        List<dev.fanin.core.event.Event> events = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            events.add(event("e" + i, T0.toEpochMilli() + i));
        }
        return events;
    }

    /** Windows of at most 2 events per revision, split when full. */
    private final WindowMachine splitting = new WindowMachine(PipelineFixture.pipeline().maxEventsPerWindow(2).build(), LEASE);

    /** The first revision, full after two events and claimed as SIZE_LIMIT. */
    private WindowState splitClaimed() {
        WindowState fresh = open(splitting);
        WindowState split = stored(splitting.ingest(fresh, List.of(event("e1", T0.toEpochMilli()), event("e2", T0.toEpochMilli() + 1)),
                T0.toEpochMilli(), T0), fresh);
        assertThat(split.claim().reason()).isEqualTo(CloseReason.SIZE_LIMIT);
        return split;
    }

    @Test
    void whileASplitIsClaimedEventsCountInTheNextRevision() {
        WindowMachine m = splitting;
        WindowState split = splitClaimed();

        Transition t = m.ingest(split, List.of(event("e3", T0.toEpochMilli() + 2)), T0.toEpochMilli(), T0.plusSeconds(1));

        assertThat(dispositions(t)).containsExactly(Disposition.ACCEPTED);
        assertThat(t.write()).isTrue();
        assertThat(t.next().claim()).as("the split's frozen emission").isEqualTo(split.claim());
        assertThat(t.next().revisionEvents()).isEqualTo(1);
    }

    @Test
    void aContinuationThatGotNothingClosesWithoutEmitting() {
        WindowMachine m = splitting;
        WindowState split = splitClaimed();
        WindowState continuation = stored(m.commit(split, split.fence(), T0.toEpochMilli(), T0), split);

        Transition t = m.tick(continuation, END, T0.plusSeconds(65));

        assertThat(t.action()).isEqualTo(Transition.Action.NONE);
        assertThat(t.next().status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(t.next().committedRevision()).isZero();
    }

    @ParameterizedTest(name = "onOverflow {0}")
    @CsvSource({"SIDE_OUTPUT, WINDOW_FULL", "SPLIT, ACCEPTED"})
    void aFullRevisionTakesNoMoreEvents(Bounds.Overflow overflow, Disposition disposition) {
        // SPLIT claims the full revision (SIZE_LIMIT) and counts what comes while it is claimed in the next one;
        // SIDE_OUTPUT keeps the window open and sends what does not fit to the side output.
        PipelineConfig config = PipelineFixture.pipeline().maxEventsPerWindow(2).onOverflow(overflow).build();
        WindowMachine m = new WindowMachine(config, LEASE);
        WindowState fresh = open(m);
        Transition first = m.ingest(fresh, List.of(event("e1", T0.toEpochMilli()), event("e2", T0.toEpochMilli() + 1)),
                T0.toEpochMilli(), T0);
        WindowState full = stored(first, fresh);

        Transition t = m.ingest(full, List.of(event("e3", T0.toEpochMilli() + 2)), T0.toEpochMilli(), T0.plusSeconds(1));

        assertThat(dispositions(t)).containsExactly(disposition);
        if (overflow == Bounds.Overflow.SPLIT) {
            assertThat(full.claim().emission().path("seen").asInt()).as("the claimed revision").isEqualTo(2);
            assertThat(t.next().revisionEvents()).as("the next one").isEqualTo(1);
        } else {
            assertThat(full.revisionEvents()).isEqualTo(2);
        }
    }

    @Test
    void aSentinelThatDoesNotCountAsAnEventCompletesButIsNotCounted() {
        PipelineConfig config = PipelineFixture.pipeline().sentinel(new SentinelSpec(
                new Condition(PipelineFixture.path("$.type"), "done", null, null, null), null, false)).build();
        WindowMachine m = new WindowMachine(config, LEASE);
        WindowState fresh = open(m);

        Transition t = m.ingest(fresh, List.of(event("e1", T0.toEpochMilli()), event("e2", T0.toEpochMilli() + 1),
                event("z", T0.toEpochMilli() + 2, "{\"type\":\"done\"}")), T0.toEpochMilli(), T0);

        assertThat(dispositions(t)).containsExactly(Disposition.ACCEPTED, Disposition.ACCEPTED, Disposition.ACCEPTED);
        assertThat(t.next().claim().reason()).isEqualTo(CloseReason.SENTINEL);
        assertThat(t.next().revisionEvents()).isEqualTo(2);
        assertThat(t.next().claim().emission().path("aggregations").path("count").asLong()).isEqualTo(2);
        assertThat(t.next().eventIds()).hasSize(3);
    }
}
