package dev.fanin.bench;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowAssigner;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How the do-it-yourself designs assign an event to windows, in arrival order: the pipeline's tumbling or sliding
 * windows by event time, or a session per key that an event joins when it lies within the gap of the session's
 * first or last event (otherwise it starts a new one; sessions are never merged). Window ids are the sort keys the
 * designs write: {@code T<start>} or {@code S<first event>}. Both designs flush a window the same way ({@link #billFlush}).
 */
final class BaselineWindows {

    private final Map<String, PipelineConfig> pipelines;
    private final Map<String, Session> sessions = new HashMap<>();

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

    /** The window item's partition key for an event. */
    static String partitionKey(Event event) {
        return "W#" + event.pipeline() + "#" + event.key();
    }

    /** Both designs' flush of a window item of {@code bytes}: a strongly consistent GetItem, an UpdateItem SET flushed. */
    static void billFlush(DynamoDbBill bill, long bytes) {
        bill.purpose(Purpose.FLUSH_READ);
        bill.call("GetItem");
        bill.read(CapacityRules.strongReadUnits(bytes));
        bill.purpose(Purpose.FLUSH_WRITE);
        bill.call("UpdateItem");
        bill.write(CapacityRules.writeUnits(bytes, bytes + "flushed".length() + 1));
    }

    private Session session(Event event, long t, long gap) {
        String sessionKey = event.pipeline() + "\u0000" + event.key();
        Session current = sessions.get(sessionKey);
        if (current == null || t >= current.last + gap || t < current.first - gap) {
            current = new Session(t);
            sessions.put(sessionKey, current);
        }
        current.first = Math.min(current.first, t);
        current.last = Math.max(current.last, t);
        return current;
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
