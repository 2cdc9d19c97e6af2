package dev.fanin.core.service;

import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a machine transition against the store: create or conditional replace, then records what must follow
 * (emission, timer) and the metrics of the write. The only place where window writes are issued.
 */
final class WindowWrites {

    private static final Logger LOG = LoggerFactory.getLogger(WindowWrites.class);

    private final FaninEngine engine;
    private final OpenWindowSlots slots;
    private final DueCoverage coverage;

    WindowWrites(FaninEngine engine) {
        this.engine = engine;
        this.slots = new OpenWindowSlots(engine);
        this.coverage = new DueCoverage(engine);
    }

    /**
     * Writes {@code t.next()} in place of {@code loaded} (null for a window that does not exist yet). The window is
     * first listed in a due bucket if the write needs it ({@link DueCoverage}), and a new window first takes an
     * open-window slot; a window that this write closes for the first time frees its slot.
     *
     * @return the store's outcome ({@link WriteOutcome.Rejection#OPEN_WINDOW_BOUND} when no slot is left); on
     *         success the follow-ups are recorded
     */
    WriteOutcome write(StoredWindow loaded, Transition t, Followups followups) {
        return write(loaded, t, followups, false);
    }

    /**
     * {@link #write} for a timer or sweep visit of a window that exists, which also keeps what it stored in
     * {@link Followups#visitWrote}: a visit adds no event id, so the store keeps the id layout the visit loaded, and
     * the commit that follows in the invocation starts from it instead of reading the window again.
     */
    WriteOutcome writeVisited(StoredWindow loaded, Transition t, Followups followups) {
        return write(loaded, t, followups, true);
    }

    private WriteOutcome write(StoredWindow loaded, Transition t, Followups followups, boolean visited) {
        WindowState next = t.next();
        followups.visitWrote.remove(next.ref());
        boolean creating = loaded == null;
        // A window opens when it is created holding a slot (one created closed keeps only too-late verdicts), or when
        // one stored for those verdicts alone takes its first event (WindowMachine#reopened): no other closed window
        // holds a slot again.
        boolean opens = next.holdsSlot() && (creating || loaded.status() == WindowStatus.CLOSED);
        coverage.before(loaded, next, followups, !next.kind().isSession());
        if (opens && !slots.take(next, followups)) {
            return WriteOutcome.rejected(WriteOutcome.Rejection.OPEN_WINDOW_BOUND, 0);
        }
        StoredWindow encoded = WindowCodec.encode(next);
        WriteOutcome outcome = put(loaded, encoded);
        if (!outcome.applied()) {
            if (opens) {
                slots.unused(next, followups);
            }
            return outcome;
        }
        if (!creating && !next.holdsSlot() && engine.decode(loaded).holdsSlot()) {
            slots.freed(next, followups);
        }
        if (opens) {
            opened(next);
        }
        if (!creating && visited) {
            followups.visitWrote.put(next.ref(), encoded.withVersion(loaded.version() + 1));
        }
        after(t, creating ? next.version() + 1 : loaded.version() + 1, followups);
        return outcome;
    }

    /**
     * Writes one window item (listed first when the write needs it) and records the write's units, without the
     * follow-ups of its transition: a session's committer, whose commit is done only once the session has left its
     * key's live item, records them then ({@link #after}). A committed session's item is listed by its own entries,
     * never by its key's (the sweeper reads only the live item for those).
     */
    WriteOutcome writeOnly(StoredWindow loaded, WindowState next, Followups followups) {
        followups.visitWrote.remove(next.ref());
        coverage.before(loaded, next, followups, !next.kind().isSession());
        return put(loaded, WindowCodec.encode(next));
    }

    private WriteOutcome put(StoredWindow loaded, StoredWindow encoded) {
        WriteOutcome outcome = loaded == null ? engine.ports().store().create(encoded) : engine.ports().store().replace(loaded, encoded);
        recordUnits(encoded.ref().pipeline(), outcome);
        return outcome;
    }

    /**
     * Writes a change to a key's live sessions as one conditional replace: each changed session listed first where it
     * needs it (its key's entries cover it), the slots of sessions that left it (merged, or committed) freed after.
     * The slots of sessions it creates are taken by the caller ({@link #takeSlot}) and returned here if the write
     * loses.
     */
    WriteOutcome writeLive(LiveChange change, Followups followups) {
        return writeLive(change, followups, false);
    }

    /** {@link #writeLive} for a timer or sweep visit, keeping what it stored as {@link #writeVisited} does. */
    WriteOutcome writeLiveVisited(LiveChange change, Followups followups) {
        return writeLive(change, followups, true);
    }

    private WriteOutcome writeLive(LiveChange change, Followups followups, boolean visited) {
        for (Transition t : change.transitions()) {
            coverage.before(change.loadedSession(t.next().ref().windowId()), t.next(), followups, true);
        }
        LiveSessions loaded = change.loaded();
        followups.visitWroteLive.remove(WindowRef.wholeKey(loaded.pipeline(), loaded.key()));
        LiveSessions next = change.build();
        WriteOutcome outcome = engine.ports().store().replaceLive(loaded, next);
        recordUnits(loaded.pipeline(), outcome);
        List<WindowState> created = change.transitions().stream().map(Transition::next)
                .filter(s -> change.isCreated(s.ref().windowId())).toList();
        if (!outcome.applied()) {
            created.stream().filter(WindowState::holdsSlot).forEach(s -> slots.unused(s, followups));
            return outcome;
        }
        for (WindowState left : change.absorbed()) {
            merged(left, followups);
        }
        for (WindowState left : change.committed()) {
            if (left.holdsSlot()) {
                slots.freed(left, followups);
            }
        }
        created.forEach(this::opened);
        if (visited) {
            followups.visitWroteLive.put(WindowRef.wholeKey(loaded.pipeline(), loaded.key()), next.written());
        }
        if (!change.absorbed().isEmpty()) {
            WindowLog.info(LOG, change.transitions().iterator().next().next().ref(), "sessions merged",
                    Map.of("absorbed", change.absorbed().stream().map(s -> s.ref().windowId()).toList()));
        }
        change.transitions().forEach(t -> after(t, loaded.version() + 1, followups));
        return outcome;
    }

    /** Takes an open-window slot for a session a live change is about to create; false when the pipeline is full. */
    boolean takeSlot(WindowState created, Followups followups) {
        return !created.holdsSlot() || slots.take(created, followups);
    }

    /** Returns the slot of a session the caller took one for and then did not create. */
    void untakeSlot(WindowState created, Followups followups) {
        if (created.holdsSlot()) {
            slots.unused(created, followups);
        }
    }

    private void recordUnits(String pipeline, WriteOutcome outcome) {
        Metrics metrics = engine.ports().metrics();
        metrics.record(MetricNames.WRITE_UNITS, outcome.writeUnits(), Metrics.Unit.COUNT, Map.of("pipeline", pipeline));
        if (!outcome.applied() && outcome.reason() == WriteOutcome.Rejection.CONFLICT) {
            metrics.count(MetricNames.WINDOW_CONFLICTS, pipeline);
        }
        if (!outcome.applied() && outcome.reason() == WriteOutcome.Rejection.TOO_LARGE) {
            // The ingest hands events back for it; a visit's claim or a commit is tried again by the next visit.
            LOG.warn("pipeline {}: a write of a key's live sessions would pass what one item holds; not written", pipeline);
        }
    }

    private void opened(WindowState next) {
        engine.ports().metrics().count(MetricNames.WINDOWS_OPENED, next.ref().pipeline());
        WindowLog.info(LOG, next.ref(), "window opened", Map.of("start", next.bounds().startMillis(), "end", next.bounds().endMillis(),
                "hardDeadline", next.hardDeadline()));
    }

    /** What follows a write of {@code t} applied at {@code storedVersion}: the emission of a claim, an alert, a timer. */
    void after(Transition t, long storedVersion, Followups followups) {
        WindowState next = t.next();
        if (t.action() == Transition.Action.EMIT) {
            followups.claimed.add(next.withVersion(storedVersion));
        } else if (t.action() == Transition.Action.HELD) {
            engine.ports().metrics().count(MetricNames.HELD_WINDOWS, next.ref().pipeline());
            WindowLog.warn(LOG, next.ref(), "window held incomplete until its hard deadline",
                    Map.of("hardDeadline", next.hardDeadline(), "missing", next.completeness().missingCount()));
        }
        if (t.armsTimer()) {
            followups.timers.add(wakeup(t));
        }
    }

    /** A session absorbed by a merge ({@code before} as loaded) frees its slot if it held one. */
    private void merged(WindowState before, Followups followups) {
        if (before.holdsSlot()) {
            slots.freed(before, followups);
        }
    }

    /** Returns this invocation's freed and unused open-window slots (see {@link OpenWindowSlots#settle}). */
    void settleSlots(Followups followups) {
        slots.settle(followups);
    }

    /**
     * Arms the recorded timers, in as few calls as the transport allows. A timer not armed delays its window's close
     * until the next sweep at most; a timer visit retries the message whose chain it continued (see TimerService).
     *
     * @return the timers that could not be armed
     */
    List<WindowTimers.Wakeup> armTimers(Followups followups) {
        if (followups.timers.isEmpty()) {
            return List.of();
        }
        List<WindowTimers.Wakeup> wakeups = List.copyOf(followups.timers);
        followups.timers.clear();
        List<WindowTimers.Wakeup> notArmed;
        try {
            notArmed = engine.ports().timers().armAll(wakeups, engine.clock().instant());
        } catch (RuntimeException e) {
            notArmed = wakeups;
        }
        if (!notArmed.isEmpty()) {
            LOG.warn("{} of {} timer(s) of this invocation not armed; the sweeper closes their windows if nothing else does",
                    notArmed.size(), wakeups.size());
        }
        return notArmed;
    }

    /**
     * The timer message {@code t} arms: the next of {@code t.next()}'s chain (after the write, or as read when there
     * is nothing to write).
     */
    static WindowTimers.Wakeup wakeup(Transition t) {
        return new WindowTimers.Wakeup(t.next().ref(), t.timerDue(), t.next().timer().id());
    }

    static List<WindowState> drain(List<WindowState> list) {
        List<WindowState> copy = List.copyOf(list);
        list.clear();
        return copy;
    }
}
