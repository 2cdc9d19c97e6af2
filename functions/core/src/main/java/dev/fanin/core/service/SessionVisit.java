package dev.fanin.core.service;

import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A time-driven visit (sweeper or timer) of sessions that are still live: they resolve through their key's live item,
 * and every change the visit decides for them is one conditional write of that item. A session that is no longer
 * there has been committed into an item of its own (visited as any window, {@link WindowVisit}) or absorbed by a merge
 * (nothing left to do).
 */
final class SessionVisit {

    private final FaninEngine engine;
    private final WindowWrites writes;

    SessionVisit(FaninEngine engine, WindowWrites writes) {
        this.engine = engine;
        this.writes = writes;
    }

    /** A key's live item as a caller just read it, and {@link FaninEngine#nextSequence()} drawn just before. */
    record Read(LiveSessions live, long readAt) {
    }

    /**
     * Visits the live sessions {@code windowIds} of one key (each that has a due time, when {@code windowIds} is null)
     * in one read and at most one write, re-read and re-decided on a conflict.
     *
     * @param preloaded the live item as just read by the caller, for the first attempt; null to read it
     * @return by session, the outcome of its visit; a session not in the live item is absent; empty when the visit kept
     *         conflicting
     */
    Optional<Map<WindowRef, WindowVisit.Visited>> visit(String pipeline, String key, List<String> windowIds, Read preloaded, Visit visit) {
        int[] attempt = {0};
        Visit[] current = {visit};
        return Conflicts.retry(engine.settings().conflictRetries(), () -> current[0] = visit.again(engine, pipeline), () -> {
            boolean usePreloaded = attempt[0]++ == 0 && preloaded != null;
            Read read = usePreloaded ? preloaded : fresh(pipeline, key);
            return attempt(read, windowIds, current[0]);
        });
    }

    private Read fresh(String pipeline, String key) {
        long readAt = engine.nextSequence();
        return new Read(engine.ports().store().loadLive(pipeline, key), readAt);
    }

    private Optional<Map<WindowRef, WindowVisit.Visited>> attempt(Read read, List<String> windowIds, Visit asked) {
        // Decide no earlier than the read: an ingest that wrote the item before it, past a session's hard deadline, planned
        // that session as cut there and may have opened its continuation inside its gap (KeySessions); deciding at an
        // earlier time (a timer batch takes its time once) would close it whole, overlapping that continuation.
        Visit visit = asked.notBefore(engine.clock().instant());
        LiveSessions live = read.live();
        Map<String, WindowState> states = new LinkedHashMap<>();
        live.sessions().forEach(s -> states.put(s.ref().windowId(), engine.decode(s)));
        LiveChange change = new LiveChange(live, states, visit.now());
        Map<WindowRef, Transition> decided = new LinkedHashMap<>();
        List<WindowTimers.Wakeup> continued = new ArrayList<>();
        WindowMachine machine = engine.machine(live.pipeline(), visit.watermark());
        for (WindowState state : states.values()) {
            boolean wanted = windowIds == null ? state.dueAt() != null : windowIds.contains(state.ref().windowId());
            if (!wanted) {
                continue;
            }
            Transition t = machine.tick(state, visit.watermark().millis(), visit.now(), visit.visitor());
            decided.put(state.ref(), t);
            if (t.write()) {
                if (t.action() == Transition.Action.EMIT && state.isClaimed()) {
                    engine.ports().metrics().count(MetricNames.TAKEOVERS, live.pipeline());
                }
                change.put(t, false);
            } else if (t.armsTimer()) {
                continued.add(WindowWrites.wakeup(t));
            }
        }
        if (change.changed()) {
            WriteOutcome outcome = writes.writeLiveVisited(change, visit.followups());
            if (!outcome.applied()) {
                return Optional.empty();
            }
        }
        visit.followups().timers.addAll(continued);
        Map<WindowRef, WindowVisit.Visited> visited = new LinkedHashMap<>();
        decided.forEach((ref, t) -> visited.put(ref, WindowVisit.Visited.of(t.write() ? t.next() : states.get(ref.windowId()), t, visit.now(),
                read.readAt())));
        return Optional.of(visited);
    }
}
