package dev.fanin.core.service;

import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.Visitor;
import dev.fanin.core.machine.WindowMachine;
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

    /** Visits the live sessions of a key that have a due time, as {@link SessionVisit#visit} with every id. */
    Optional<Map<WindowRef, Visited>> visitLive(String pipeline, String key, LiveSessions preloaded, long preloadedAt, long watermark,
                                                Instant now, Followups followups) {
        return sessions.visit(pipeline, key, null, preloaded, preloadedAt, watermark, now, Visitor.SWEEP, followups);
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
     * @param preloaded the window as just loaded by the caller, for the first attempt; null to load it
     * @param preloadedAt {@link FaninEngine#nextSequence()} drawn just before the caller's load (with {@code preloaded})
     * @param visitor   the sweeper, or the timer message that triggered this visit: a message of the window's live
     *                  chain that finds it not yet due arms the chain's next message, with no write
     * @return the outcome, or empty when the visit kept conflicting
     */
    Optional<Visited> visit(WindowRef ref, StoredWindow preloaded, long preloadedAt, long watermark, Instant now,
                            Visitor visitor, Followups followups) {
        if (preloaded == null && engine.machine(ref.pipeline()).config().window() instanceof WindowSpec.Session) {
            Optional<Map<WindowRef, Visited>> live = sessions.visit(ref.pipeline(), ref.key(), List.of(ref.windowId()), null, 0,
                    watermark, now, visitor, followups);
            if (live.isEmpty() || live.get().containsKey(ref)) {
                return live.map(visited -> visited.get(ref));
            }
        }
        int[] attempt = {0};
        return Conflicts.retry(engine.settings().conflictRetries(), () -> {
            boolean usePreloaded = attempt[0]++ == 0 && preloaded != null;
            long readAt = usePreloaded ? preloadedAt : engine.nextSequence();
            Optional<StoredWindow> loaded = usePreloaded ? Optional.of(preloaded) : engine.ports().store().load(ref);
            return loaded.isEmpty() ? Optional.of(Visited.gone(readAt)) : decide(loaded.get(), readAt, watermark, now, visitor, followups);
        });
    }

    private Optional<Visited> decide(StoredWindow loaded, long readAt, long watermark, Instant now, Visitor visitor,
                                     Followups followups) {
        WindowState state = engine.decode(loaded);
        WindowRef ref = state.ref();
        Transition t = engine.machine(ref.pipeline()).tick(state, watermark, now, visitor);
        if (!t.write()) {
            if (t.armsTimer()) {
                followups.timers.add(WindowWrites.wakeup(t));
            }
            return Optional.of(Visited.of(state, t, now, readAt));
        }
        if (t.action() == Transition.Action.EMIT && state.isClaimed()) {
            engine.ports().metrics().count(MetricNames.TAKEOVERS, ref.pipeline());
        }
        WriteOutcome outcome = writes.write(loaded, t, followups);
        return outcome.applied() ? Optional.of(Visited.of(t.next(), t, now, readAt)) : Optional.empty();
    }
}
