package dev.fanin.bench;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowAssigner;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * How the do-it-yourself designs assign an event to windows, in arrival order: the pipeline's tumbling or sliding
 * windows by event time, or one of its key's sessions. An event joins the session its time falls in, or else one it
 * lies within the gap of (the latest-starting session that starts at or before it, then the one that starts after
 * it); otherwise it starts a new one. Sessions are never merged, so an event that bridges two joins one of them, and a
 * late duplicate joins the session it belongs to instead of starting a stale one. Window ids are the sort keys the
 * designs write: {@code T<start>} or {@code S<first event>} (the first event when the session was started).
 */
final class BaselineWindows {

    private final Map<String, PipelineConfig> pipelines;
    /** By pipeline and key: its sessions by their earliest event time. */
    private final Map<String, NavigableMap<Long, Session>> sessions = new HashMap<>();

    BaselineWindows(Map<String, PipelineConfig> pipelines) {
        this.pipelines = Map.copyOf(pipelines);
    }

    /** The window ids the event is counted in. */
    List<String> of(Event event) {
        PipelineConfig config = pipelines.get(event.pipeline());
        long t = event.eventTime().toEpochMilli();
        if (config.window() instanceof WindowSpec.Session session) {
            return List.of("S" + session(event, t, session.gap().toMillis()).id);
        }
        return WindowAssigner.assign(config.window(), t).stream().map(Interval::startMillis).map(start -> "T" + start).toList();
    }

    /** Whether {@code windowId} names a session (whose item a design must look up by event time). */
    static boolean isSession(String windowId) {
        return windowId.startsWith("S");
    }

    /** The time a window id names: a tumbling window's start, a session's first event when it was started. */
    static long idMillis(String windowId) {
        return Long.parseLong(windowId.substring(1));
    }

    /** The window item's partition key for an event. */
    static String partitionKey(Event event) {
        return "W#" + event.pipeline() + "#" + event.key();
    }

    private Session session(Event event, long t, long gap) {
        NavigableMap<Long, Session> key = sessions.computeIfAbsent(event.pipeline() + "\u0000" + event.key(), k -> new TreeMap<>());
        Session joined = sessionOf(key, t, gap);
        if (joined == null) {
            joined = new Session(t);
        } else if (t < joined.first) {
            key.remove(joined.first);
        }
        joined.first = Math.min(joined.first, t);
        joined.last = Math.max(joined.last, t);
        key.put(joined.first, joined);
        return joined;
    }

    /** The session of the key's that an event at {@code t} joins, or null when it starts one. */
    private static Session sessionOf(NavigableMap<Long, Session> key, long t, long gap) {
        Map.Entry<Long, Session> before = key.floorEntry(t);
        if (before != null && t < before.getValue().last + gap) {
            return before.getValue();
        }
        Map.Entry<Long, Session> after = key.higherEntry(t);
        return after != null && t >= after.getKey() - gap ? after.getValue() : null;
    }

    private static final class Session {
        final long id;
        long first;
        long last;

        Session(long t) {
            this.id = t;
            this.first = t;
            this.last = t;
        }
    }
}
