package dev.fanin.core.service;

import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
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
     * open-window slot; a window that this write closes or merges for the first time frees its slot.
     *
     * @return the store's outcome ({@link WriteOutcome.Rejection#OPEN_WINDOW_BOUND} when no slot is left); on
     *         success the follow-ups are recorded
     */
    WriteOutcome write(StoredWindow loaded, Transition t, Followups followups) {
        WindowState next = t.next();
        boolean creating = loaded == null;
        coverage.before(loaded, next, followups);
        if (creating && next.holdsSlot() && !slots.take(next, followups)) {
            return WriteOutcome.rejected(WriteOutcome.Rejection.OPEN_WINDOW_BOUND, 0);
        }
        StoredWindow encoded = WindowCodec.encode(next);
        WriteOutcome outcome = creating ? engine.ports().store().create(encoded) : engine.ports().store().replace(loaded, encoded);
        Metrics metrics = engine.ports().metrics();
        String pipeline = next.ref().pipeline();
        metrics.record(MetricNames.WRITE_UNITS, outcome.writeUnits(), Metrics.Unit.COUNT, Map.of("pipeline", pipeline));
        if (!outcome.applied()) {
            if (creating && next.holdsSlot()) {
                slots.unused(next, followups);
            }
            if (outcome.reason() == WriteOutcome.Rejection.CONFLICT) {
                metrics.count(MetricNames.WINDOW_CONFLICTS, pipeline);
            }
            return outcome;
        }
        if (!creating && !next.holdsSlot() && engine.decode(loaded).holdsSlot()) {
            slots.freed(next, followups);
        }
        if (loaded == null) {
            metrics.count(MetricNames.WINDOWS_OPENED, pipeline);
            WindowLog.info(LOG, next.ref(), "window opened", Map.of("start", next.bounds().startMillis(), "end", next.bounds().endMillis(),
                    "hardDeadline", next.hardDeadline()));
        }
        if (t.action() == Transition.Action.EMIT) {
            // The state as stored: its version is one more than the one read.
            followups.claimed.add(next.withVersion(loaded == null ? 1 : loaded.version() + 1));
        } else if (t.action() == Transition.Action.HELD) {
            metrics.count(MetricNames.HELD_WINDOWS, pipeline);
            WindowLog.warn(LOG, next.ref(), "window held incomplete until its hard deadline",
                    Map.of("hardDeadline", next.hardDeadline(), "missing", next.completeness().missingCount()));
        }
        if (t.armsTimer()) {
            followups.timers.add(wakeup(t));
        }
        return outcome;
    }

    /** Lists a window before a write issued elsewhere (a session merge), as {@link #write} does. */
    void listBefore(StoredWindow loaded, WindowState next, Followups followups) {
        coverage.before(loaded, next, followups);
    }

    /** A session absorbed by a merge written elsewhere ({@code before} as loaded) frees its slot if it held one. */
    void merged(WindowState before, Followups followups) {
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
