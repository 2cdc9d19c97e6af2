package dev.fanin.core.machine;

import static dev.fanin.core.machine.Transition.Action.EMIT;
import static dev.fanin.core.machine.Transition.Action.HELD;
import static dev.fanin.core.machine.Transition.Action.NONE;

import dev.fanin.core.window.WindowStatus;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * The window life cycle as a table: for each status and {@link Stimulus}, the (next status, action) pairs the machine
 * may return, or that the stimulus is ignored (nothing written), refused (an error: the caller's plan is wrong), or
 * cannot arise in that status. {@link WindowMachine} checks every decision against it: a refused stimulus throws
 * before anything is decided, and a decision outside its cell is a bug that throws rather than being written.
 * docs/SEMANTICS.md ("Window life cycle") links here; WindowMachineTest has one row per cell.
 */
public final class TransitionTable {

    /** A decision's visible result. */
    public record Outcome(WindowStatus status, Transition.Action action) {
    }

    /** How a status meets a stimulus. */
    public enum Kind {
        /** The machine decides: the result is one of the cell's outcomes (possibly with nothing to write). */
        STEP,
        /** Nothing changes and nothing is written: the window is past what the stimulus asks for. */
        IGNORED,
        /** The machine throws: no correct caller asks for it. */
        REFUSED,
        /** The stimulus cannot arise in this status (the machine classifies the call as another stimulus). */
        IMPOSSIBLE
    }

    /** One cell: its kind, the outcomes a STEP may have (for IGNORED, the status as it stands), and why. */
    public record Cell(Kind kind, Set<Outcome> outcomes, String why) {
    }

    private static final Map<WindowStatus, Map<Stimulus, Cell>> CELLS = new EnumMap<>(WindowStatus.class);

    static {
        accepting(WindowStatus.OPEN, Set.of(o(WindowStatus.OPEN, NONE), o(WindowStatus.HELD, HELD), o(WindowStatus.CLAIMED, EMIT),
                o(WindowStatus.CLOSED, NONE)));
        // An empty split continuation a version before held closes unemitted at its next decision.
        accepting(WindowStatus.HELD, Set.of(o(WindowStatus.HELD, NONE), o(WindowStatus.CLAIMED, EMIT), o(WindowStatus.CLOSED, NONE)));

        WindowStatus c = WindowStatus.CLAIMED;
        Set<Outcome> claimedStays = Set.of(o(c, NONE), o(c, EMIT));
        put(c, Stimulus.EVENTS, step("corrections (or a split's next revision) counted beside the frozen claim; a lease "
                + "already ended is taken over", claimedStays));
        put(c, Stimulus.SIZE_LIMIT_SPLIT, step("a split being emitted whose next revision is full too: the events wait "
                + "(RETRY); a lease already ended is taken over", claimedStays));
        put(c, Stimulus.VISIT, step("the lease runs: nothing to do but list the window at its end", Set.of(o(c, NONE))));
        put(c, Stimulus.TAKEOVER, step("the claimer did not commit in time: a new fence emits the same frozen revision",
                Set.of(o(c, EMIT))));
        put(c, Stimulus.COMMIT, step("the fence's holder commits: CLOSED, or OPEN for a time window's split, then decided "
                + "again at once (a due correction or trigger claims anew); a stale fence writes nothing",
                Set.of(o(WindowStatus.CLOSED, NONE), o(WindowStatus.OPEN, NONE), o(WindowStatus.HELD, HELD), o(c, EMIT), o(c, NONE))));
        put(c, Stimulus.OPERATOR_CLOSE, ignored(c, "the close that claimed it first stands"));
        put(c, Stimulus.ABSORB, refused("a claimed session's bounds are frozen: the planner merges accepting sessions only"));
        put(c, Stimulus.SESSION_LIMIT_CUT, refused("only an accepting session can be cut short"));

        WindowStatus d = WindowStatus.CLOSED;
        Set<Outcome> correction = Set.of(o(d, NONE), o(c, EMIT));
        Set<Outcome> heldOrCorrection = Set.of(o(d, NONE), o(d, HELD), o(c, EMIT));
        put(d, Stimulus.EVENTS, step("late events within lateness are corrections, claimed once the correction delay has "
                + "passed; later ones are too late; under HOLD, a continuation closed before it counted any holds its late "
                + "events while incomplete, as a HELD window does (alert), to be claimed when complete or at the hard deadline. "
                + "(A time window stored only for too-late verdicts, never emitted, meets events as a new OPEN one: OPEN's cell)",
                heldOrCorrection));
        put(d, Stimulus.SIZE_LIMIT_SPLIT, step("a closed window never splits: a full time window refuses its corrections, a "
                + "session takes them past the bound; those it took may start a held continuation's wait, as under EVENTS",
                heldOrCorrection));
        put(d, Stimulus.VISIT, step("a pending correction is claimed when due; else nothing", correction));
        put(d, Stimulus.TAKEOVER, impossible("no claim, no lease"));
        put(d, Stimulus.COMMIT, ignored(d, "nothing is claimed: the emission was a duplicate of a committed revision"));
        put(d, Stimulus.OPERATOR_CLOSE, step("closed already, left alone; but a continuation whose late events are held "
                + "incomplete under HOLD is claimed at once, reason OPERATOR, as a HELD window is", correction));
        put(d, Stimulus.ABSORB, refused("a flushed session's bounds are frozen: the planner merges accepting sessions only"));
        put(d, Stimulus.SESSION_LIMIT_CUT, refused("only an accepting session can be cut short"));

        WindowStatus m = WindowStatus.MERGED;
        String tombstone = "a MERGED session is a tombstone of an older fanin: its events are counted by the survivor";
        put(m, Stimulus.EVENTS, refused(tombstone + "; re-plan the key's sessions"));
        put(m, Stimulus.SIZE_LIMIT_SPLIT, refused(tombstone + "; re-plan the key's sessions"));
        put(m, Stimulus.VISIT, step(tombstone + ": nothing is ever due", Set.of(o(m, NONE))));
        put(m, Stimulus.TAKEOVER, impossible("no claim, no lease"));
        put(m, Stimulus.COMMIT, ignored(m, tombstone));
        put(m, Stimulus.OPERATOR_CLOSE, ignored(m, tombstone));
        put(m, Stimulus.ABSORB, refused(tombstone));
        put(m, Stimulus.SESSION_LIMIT_CUT, refused(tombstone));
    }

    /** OPEN and HELD: they accept events, and every close starts from them. */
    private static void accepting(WindowStatus s, Set<Outcome> decided) {
        put(s, Stimulus.EVENTS, step("counted; then the triggers decide: no trigger, held (HOLD, incomplete), claimed, or "
                + "(an empty split continuation) closed without an emission; a new window whose events were all too late is "
                + "stored closed, for their verdicts alone", decided));
        put(s, Stimulus.SIZE_LIMIT_SPLIT, step("the full revision is cut (SIZE_LIMIT, flagged) and the rest counted in "
                + "the next; a trigger that precedes SIZE_LIMIT closes or holds it instead; duplicates change nothing", decided));
        put(s, Stimulus.VISIT, step("the triggers decide, as after events", decided));
        put(s, Stimulus.TAKEOVER, impossible("no claim, no lease"));
        put(s, Stimulus.COMMIT, ignored(s, "nothing is claimed"));
        put(s, Stimulus.OPERATOR_CLOSE, step("claimed at once, reason OPERATOR; an empty split continuation closes without "
                + "an emission, as under a trigger", Set.of(o(WindowStatus.CLAIMED, EMIT), o(WindowStatus.CLOSED, NONE))));
        put(s, Stimulus.ABSORB, step("the survivor spans both and keeps its status; the absorbed one leaves the item",
                Set.of(o(s, NONE))));
        put(s, Stimulus.SESSION_LIMIT_CUT, step("claimed at once, reason SESSION_LIMIT, cut short",
                Set.of(o(WindowStatus.CLAIMED, EMIT))));
    }

    private TransitionTable() {
    }

    /** The cell of {@code status} meeting {@code stimulus}. */
    public static Cell cell(WindowStatus status, Stimulus stimulus) {
        return CELLS.get(status).get(stimulus);
    }

    /** Throws when {@code status} refuses {@code stimulus}, naming the window and why. */
    static void require(WindowState state, Stimulus stimulus) {
        Cell cell = cell(state.status(), stimulus);
        if (cell.kind() == Kind.REFUSED || cell.kind() == Kind.IMPOSSIBLE) {
            throw new IllegalStateException(stimulus + " refused by " + state.status() + " window " + state.ref() + ": " + cell.why());
        }
    }

    /** Whether the table lets {@code from} meeting {@code stimulus} end in {@code t}; throws if not (a machine bug). */
    static Transition checked(WindowStatus from, Stimulus stimulus, Transition t) {
        Cell cell = cell(from, stimulus);
        Outcome got = o(t.next().status(), t.action());
        boolean ok = cell.outcomes().contains(got) && (cell.kind() != Kind.IGNORED || !t.write());
        if (!ok) {
            throw new IllegalStateException("window " + t.next().ref() + ": " + from + " meeting " + stimulus + " gave " + got
                    + ", outside its cell " + cell);
        }
        return t;
    }

    private static Outcome o(WindowStatus status, Transition.Action action) {
        return new Outcome(status, action);
    }

    private static Cell step(String why, Set<Outcome> outcomes) {
        return new Cell(Kind.STEP, outcomes, why);
    }

    private static Cell ignored(WindowStatus status, String why) {
        return new Cell(Kind.IGNORED, Set.of(o(status, NONE)), why);
    }

    private static Cell refused(String why) {
        return new Cell(Kind.REFUSED, Set.of(), why);
    }

    private static Cell impossible(String why) {
        return new Cell(Kind.IMPOSSIBLE, Set.of(), why);
    }

    private static void put(WindowStatus status, Stimulus stimulus, Cell cell) {
        CELLS.computeIfAbsent(status, k -> new EnumMap<>(Stimulus.class)).put(stimulus, cell);
    }
}
