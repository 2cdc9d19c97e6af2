package dev.fanin.core.service;

import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A time-driven visit of one window (sweeper or timer): load, let the machine decide with the current watermark and
 * time, write under the version condition, record follow-ups. Re-reads and re-decides on a conflict, so a visit
 * racing an ingest or another visit either wins cleanly or finds the work done. A session resolves through its key's
 * live item first ({@link SessionVisit}); only a committed one is read from its own item.
 */
final class WindowVisit {

    private final FaninEngine engine;
    private final WindowWrites writes;
    private final SessionVisit sessions;

    WindowVisit(FaninEngine engine) {
        this.engine = engine;
        this.writes = new WindowWrites(engine);
        this.sessions = new SessionVisit(engine, writes);
    }

    /**
     * Visits the live sessions of a key that have a due time, as {@link SessionVisit#visit} with every id.
     *
     * @param live   the key's live item as the caller just read it
     * @param readAt {@link FaninEngine#nextSequence()} drawn just before that read
     */
    Optional<Map<WindowRef, Visited>> visitLive(LiveSessions live, long readAt, Visit visit) {
        return sessions.visit(live.pipeline(), live.key(), null, new SessionVisit.Read(live, readAt), visit);
    }

    /**
     * The outcome of a visit.
     *
     * @param state     the window as it stands after the visit; null if it does not exist
     * @param nextVisit when a sweep must visit it next (null: never): its stored due time while that is ahead, else the
     *                  time the machine found (the stored one stays early, which needs no write)
     * @param readAt    {@link FaninEngine#nextSequence()} drawn just before the read this outcome rests on, so that a
     *                  sweep can tell it from a commit written before or after that read
     */
    record Visited(WindowState state, Instant nextVisit, long readAt) {

        static Visited gone(long readAt) {
            return new Visited(null, null, readAt);
        }

        /** {@code state} as stored after (or as read by) transition {@code t} at {@code now}. */
        static Visited of(WindowState state, Transition t, Instant now, long readAt) {
            Instant stored = state.dueAt();
            if (stored == null) {
                return new Visited(state, null, readAt);
            }
            if (stored.isAfter(now)) {
                return new Visited(state, stored, readAt);
            }
            Instant found = t.listingDue();
            return new Visited(state, found != null && found.isAfter(now) ? found : now, readAt);
        }
    }

    /**
     * Visits one window: loads it (a live session through its key's live item), decides, and writes, re-read and
     * re-decided on a conflict. A timer message of the window's live chain that finds it not yet due arms the chain's
     * next message, with no write.
     *
     * @return the outcome, or empty when the visit kept conflicting
     */
    Optional<Visited> visit(WindowRef ref, Visit visit) {
        if (ref.isSession()) {
            Optional<Map<WindowRef, Visited>> live = sessions.visit(ref.pipeline(), ref.key(), List.of(ref.windowId()), null, visit);
            if (live.isEmpty() || live.get().containsKey(ref)) {
                return live.map(visited -> visited.get(ref));
            }
        }
        Visit[] current = {visit};
        return Conflicts.retry(engine.settings().conflictRetries(), () -> current[0] = visit.again(engine, ref.pipeline()), () -> {
            long readAt = engine.nextSequence();
            Optional<StoredWindow> loaded = engine.ports().store().load(ref);
            return loaded.isEmpty() ? Optional.of(Visited.gone(readAt)) : decide(loaded.get(), readAt, current[0]);
        });
    }

    private Optional<Visited> decide(StoredWindow loaded, long readAt, Visit asked) {
        // Decide no earlier than the read: a claim's lease counts from its write, not from the start of a timer batch
        // or sweep that a throttled table made slow (claims written with their lease already over were taken over by
        // a sweep elsewhere and emitted twice).
        Visit visit = asked.notBefore(engine.clock().instant());
        WindowState state = engine.decode(loaded);
        WindowRef ref = state.ref();
        Transition t = engine.machine(ref.pipeline(), visit.watermark()).tick(state, visit.watermark().millis(), visit.now(), visit.visitor());
        if (!t.write()) {
            if (t.armsTimer()) {
                visit.followups().timers.add(WindowWrites.wakeup(t));
            }
            return Optional.of(Visited.of(state, t, visit.now(), readAt));
        }
        if (t.action() == Transition.Action.EMIT && state.isClaimed()) {
            engine.ports().metrics().count(MetricNames.TAKEOVERS, ref.pipeline());
        }
        WriteOutcome outcome = writes.writeVisited(loaded, t, visit.followups());
        return outcome.applied() ? Optional.of(Visited.of(t.next(), t, visit.now(), readAt)) : Optional.empty();
    }
}
