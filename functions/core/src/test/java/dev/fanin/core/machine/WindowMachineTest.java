package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.IncompletePolicy.AtDeadline;
import dev.fanin.core.config.IncompletePolicy.Mode;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.machine.TransitionTable.Kind;
import dev.fanin.core.machine.TransitionTable.Outcome;
import dev.fanin.core.machine.Transition.Action;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The window life cycle, one row per cell of {@link TransitionTable}: a window in each status meets each
 * {@link Stimulus}, and the row states the (next status, action) it ends in, or that the machine ignores the stimulus
 * (writes nothing), refuses it (throws), or that it cannot arise there. Each row's result must also lie in the table's
 * cell, so the table and the machine cannot drift apart.
 *
 * <p>Windows: the fixture's tumbling minute [T0, T0+60 s) and a 30 s-gap session opened at T0, at most 3 events per
 * revision (overflow SPLIT), one event each; the HELD ones expect 4 events under HOLD. The stimulus comes at T0+65 s,
 * after both ends and before the lease of a claim made at T0+61 s ends.
 */
class WindowMachineTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final long T = T0.toEpochMilli();
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Instant CLAIMED_AT = T0.plusSeconds(61);
    private static final Instant NOW = T0.plusSeconds(65);

    /** The window a row starts from: its machine, its state, and the watermark it is visited at. */
    private record Window(WindowMachine machine, WindowState state, long watermark) {
    }

    private enum Shape { TUMBLING, SESSION }

    private static WindowMachine machine(Shape shape, boolean holds) {
        PipelineFixture p = PipelineFixture.pipeline().maxEventsPerWindow(3);
        if (shape == Shape.SESSION) {
            p.window(new WindowSpec.Session(Duration.ofSeconds(30)));
        }
        if (holds) {
            p.expected(new ExpectedSpec(4, null, null, 0)).incomplete(Mode.HOLD, AtDeadline.FIRE_FLAGGED);
        }
        return new WindowMachine(p.build(), LEASE);
    }

    private static long end(Shape shape) {
        return T + (shape == Shape.SESSION ? 30_000 : 60_000);
    }

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    /** A window of {@code shape} opened at {@code startMillis} with one event, stored. */
    private static WindowState opened(WindowMachine m, Shape shape, long startMillis) {
        boolean session = shape == Shape.SESSION;
        WindowRef ref = new WindowRef("test-pipe", "key-1", session ? WindowRef.sessionId(startMillis) : WindowRef.timeWindowId(startMillis));
        WindowState fresh = m.open(ref, new Interval(startMillis, startMillis + (session ? 30_000 : 60_000)), T0);
        return stored(m.ingest(fresh, List.of(event(ref.windowId() + "-e1", startMillis)), T, T0), fresh);
    }

    /** A stored window of {@code shape} in {@code status}, reached the way a real one is. */
    static Window window(WindowStatus status, Shape shape) {
        WindowMachine m = machine(shape, status == WindowStatus.HELD);
        WindowState open = opened(m, shape, T);
        long end = end(shape);
        WindowState state = switch (status) {
            case OPEN -> open;
            case HELD, CLAIMED -> stored(m.tick(open, end, CLAIMED_AT), open);
            case CLOSED -> {
                WindowState claimed = stored(m.tick(open, end, CLAIMED_AT), open);
                yield stored(m.commit(claimed, claimed.fence(), end, CLAIMED_AT.plusSeconds(1)), claimed);
            }
            case MERGED -> LegacyMerged.of(open);
        };
        assertThat(state.status()).isEqualTo(status);
        return new Window(m, state, status == WindowStatus.OPEN ? T : end);
    }

    /** What a stimulus does to a window. */
    @FunctionalInterface
    private interface Step {
        Transition apply(Window w);
    }

    private static Transition events(Window w, String... ids) {
        List<Event> events = Arrays.stream(ids).map(id -> event(id, T + 5 + Arrays.asList(ids).indexOf(id))).toList();
        return w.machine().ingest(w.state(), events, w.watermark(), NOW);
    }

    private static Step step(Stimulus stimulus) {
        return switch (stimulus) {
            case EVENTS -> w -> events(w, "n1");
            case SIZE_LIMIT_SPLIT -> w -> events(w, "n1", "n2", "n3");
            case VISIT -> w -> w.machine().tick(w.state(), w.watermark(), NOW);
            case TAKEOVER -> w -> w.machine().tick(w.state(), w.watermark(), w.state().leaseUntil());
            case COMMIT -> w -> w.machine().commit(w.state(), w.state().fence(), w.watermark(), NOW);
            case OPERATOR_CLOSE -> w -> w.machine().closeByOperator(w.state(), "row", w.watermark(), NOW);
            case SESSION_LIMIT_CUT -> w -> w.machine().cutShort(w.state(), w.watermark(), NOW);
            case ABSORB -> w -> {
                // A second session, 40 s later, that a bridging event joins to this one.
                WindowState other = opened(w.machine(), Shape.SESSION, T + 40_000);
                WindowState merged = SessionMerge.absorb(w.state(), other);
                assertThat(merged.bounds()).isEqualTo(new Interval(T, T + 70_000));
                return new Transition(merged, true, List.of(), Action.NONE, null, merged.dueAt());
            };
        };
    }

    /** One cell: a window in {@code status} of {@code shape} meets {@code stimulus}; expected outcome or kind. */
    private record Row(WindowStatus status, Stimulus stimulus, Shape shape, Kind kind, Outcome outcome, String check) {
        @Override
        public String toString() {
            return status + " x " + stimulus + " -> " + (outcome == null ? kind : outcome.status() + "/" + outcome.action())
                    + (check.isEmpty() ? "" : " (" + check + ")");
        }
    }

    private static Row row(WindowStatus from, Stimulus stimulus, Shape shape, WindowStatus to, Action action, String check) {
        return new Row(from, stimulus, shape, Kind.STEP, new Outcome(to, action), check);
    }

    private static Row ignored(WindowStatus from, Stimulus stimulus) {
        return new Row(from, stimulus, Shape.TUMBLING, Kind.IGNORED, new Outcome(from, Action.NONE), "");
    }

    private static Row refused(WindowStatus from, Stimulus stimulus, Shape shape) {
        return new Row(from, stimulus, shape, Kind.REFUSED, null, "");
    }

    private static Row impossible(WindowStatus from) {
        return new Row(from, Stimulus.TAKEOVER, Shape.TUMBLING, Kind.IMPOSSIBLE, null, "");
    }

    static Stream<Row> rows() {
        WindowStatus open = WindowStatus.OPEN;
        WindowStatus held = WindowStatus.HELD;
        WindowStatus claimed = WindowStatus.CLAIMED;
        WindowStatus closed = WindowStatus.CLOSED;
        WindowStatus merged = WindowStatus.MERGED;
        Shape tw = Shape.TUMBLING;
        Shape se = Shape.SESSION;
        return Stream.of(
                row(open, Stimulus.EVENTS, tw, open, Action.NONE, "counted, no trigger"),
                row(open, Stimulus.SIZE_LIMIT_SPLIT, tw, claimed, Action.EMIT, "split: SIZE_LIMIT claimed, n3 in the next"),
                row(open, Stimulus.VISIT, tw, open, Action.NONE, "not due"),
                impossible(open),
                ignored(open, Stimulus.COMMIT),
                row(open, Stimulus.OPERATOR_CLOSE, tw, claimed, Action.EMIT, "OPERATOR"),
                row(open, Stimulus.ABSORB, se, open, Action.NONE, "spans both"),
                row(open, Stimulus.SESSION_LIMIT_CUT, se, claimed, Action.EMIT, "SESSION_LIMIT, cut"),

                row(held, Stimulus.EVENTS, tw, held, Action.NONE, "2 of 4: still held"),
                row(held, Stimulus.SIZE_LIMIT_SPLIT, tw, held, Action.NONE, "WATERMARK precedes SIZE_LIMIT: held, n3 waits"),
                row(held, Stimulus.VISIT, tw, held, Action.NONE, "held until complete or the hard deadline"),
                impossible(held),
                ignored(held, Stimulus.COMMIT),
                row(held, Stimulus.OPERATOR_CLOSE, tw, claimed, Action.EMIT, "OPERATOR"),
                row(held, Stimulus.ABSORB, se, held, Action.NONE, "spans both"),
                row(held, Stimulus.SESSION_LIMIT_CUT, se, claimed, Action.EMIT, "SESSION_LIMIT, cut"),

                row(claimed, Stimulus.EVENTS, tw, claimed, Action.NONE, "a correction pending"),
                row(claimed, Stimulus.SIZE_LIMIT_SPLIT, tw, claimed, Action.NONE, "n1, n2 corrections, n3 waits"),
                row(claimed, Stimulus.VISIT, tw, claimed, Action.NONE, "the lease runs"),
                row(claimed, Stimulus.TAKEOVER, tw, claimed, Action.EMIT, "new fence, same emission"),
                row(claimed, Stimulus.COMMIT, tw, closed, Action.NONE, "committed"),
                ignored(claimed, Stimulus.OPERATOR_CLOSE),
                refused(claimed, Stimulus.ABSORB, se),
                refused(claimed, Stimulus.SESSION_LIMIT_CUT, se),

                row(closed, Stimulus.EVENTS, tw, closed, Action.NONE, "a correction pending"),
                row(closed, Stimulus.SIZE_LIMIT_SPLIT, tw, closed, Action.NONE, "no split after a close: n3 waits"),
                row(closed, Stimulus.VISIT, tw, closed, Action.NONE, "nothing pending"),
                impossible(closed),
                ignored(closed, Stimulus.COMMIT),
                row(closed, Stimulus.OPERATOR_CLOSE, tw, closed, Action.NONE, "closed already: left alone"),
                refused(closed, Stimulus.ABSORB, se),
                refused(closed, Stimulus.SESSION_LIMIT_CUT, se),

                refused(merged, Stimulus.EVENTS, se),
                refused(merged, Stimulus.SIZE_LIMIT_SPLIT, se),
                row(merged, Stimulus.VISIT, se, merged, Action.NONE, "nothing due"),
                impossible(merged),
                ignored(merged, Stimulus.COMMIT),
                ignored(merged, Stimulus.OPERATOR_CLOSE),
                refused(merged, Stimulus.ABSORB, se),
                refused(merged, Stimulus.SESSION_LIMIT_CUT, se));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void eachCell(Row row) {
        TransitionTable.Cell cell = TransitionTable.cell(row.status(), row.stimulus());
        assertThat(cell.kind()).as("the table's cell: %s", cell).isEqualTo(row.kind());
        Window w = window(row.status(), row.shape());
        Step step = step(row.stimulus());
        switch (row.kind()) {
            case REFUSED -> assertThatThrownBy(() -> step.apply(w)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(row.stimulus() + " refused by " + row.status());
            case IMPOSSIBLE -> {
                // No lease: however late it comes, a visit to this window is a VISIT, never a takeover.
                assertThat(w.state().leaseUntil()).isNull();
                assertThat(WindowMachine.visitOf(w.state(), Instant.MAX)).isEqualTo(Stimulus.VISIT);
            }
            case IGNORED -> {
                Transition t = step.apply(w);
                assertThat(t.write()).as("nothing written").isFalse();
                assertThat(t.next()).isEqualTo(w.state());
            }
            case STEP -> {
                Transition t = step.apply(w);
                Outcome got = new Outcome(t.next().status(), t.action());
                assertThat(got).isEqualTo(row.outcome());
                assertThat(cell.outcomes()).contains(got);
                checkDetail(row, w, t);
            }
        }
    }

    /** What the row's note says beyond the status and action. */
    private static void checkDetail(Row row, Window w, Transition t) {
        WindowState next = t.next();
        switch (row.status() + " " + row.stimulus()) {
            case "OPEN SIZE_LIMIT_SPLIT" -> {
                assertThat(next.claim().reason()).isEqualTo(CloseReason.SIZE_LIMIT);
                assertThat(next.revisionEvents()).as("n3 counted in the next revision").isEqualTo(1);
            }
            case "OPEN OPERATOR_CLOSE", "HELD OPERATOR_CLOSE" -> assertThat(next.claim().reason()).isEqualTo(CloseReason.OPERATOR);
            case "OPEN SESSION_LIMIT_CUT", "HELD SESSION_LIMIT_CUT" -> {
                assertThat(next.claim().reason()).isEqualTo(CloseReason.SESSION_LIMIT);
                assertThat(next.cutBy()).isEqualTo(CloseReason.SESSION_LIMIT);
            }
            case "HELD SIZE_LIMIT_SPLIT" -> assertThat(t.outcomes().get(2).disposition()).isEqualTo(EventOutcome.Disposition.RETRY);
            case "CLAIMED EVENTS", "CLOSED EVENTS" -> assertThat(t.outcomes().get(0).disposition())
                    .isEqualTo(EventOutcome.Disposition.CORRECTION);
            case "CLAIMED TAKEOVER" -> {
                assertThat(next.fence()).isEqualTo(w.state().fence() + 1);
                assertThat(next.claim()).isEqualTo(w.state().claim());
            }
            case "CLAIMED COMMIT" -> assertThat(next.committedRevision()).isZero();
            default -> {
            }
        }
    }

    @Test
    void everyCellHasARowAndEveryRowItsCell() {
        Set<String> covered = new HashSet<>();
        rows().forEach(r -> assertThat(covered.add(r.status() + " " + r.stimulus())).as("one row per cell: %s", r).isTrue());
        Set<String> cells = new HashSet<>();
        for (WindowStatus status : WindowStatus.values()) {
            for (Stimulus stimulus : EnumSet.allOf(Stimulus.class)) {
                assertThat(TransitionTable.cell(status, stimulus)).as("%s x %s", status, stimulus).isNotNull();
                cells.add(status + " " + stimulus);
            }
        }
        assertThat(covered).isEqualTo(cells);
    }
}
