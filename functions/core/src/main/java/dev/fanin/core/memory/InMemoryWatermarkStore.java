package dev.fanin.core.memory;

import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.watermark.Backlog;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A {@link WatermarkStore} in memory: one shard per pipeline, values only ever raised. */
public final class InMemoryWatermarkStore implements WatermarkStore {

    private final Map<String, Reading> readings = new HashMap<>();

    @Override
    public synchronized Reading read(String pipeline) {
        return readings.getOrDefault(pipeline, new Reading(Instant.EPOCH, Instant.EPOCH));
    }

    @Override
    public synchronized void advance(String pipeline, Instant maxEventTime, Instant lastArrival) {
        Reading r = read(pipeline);
        readings.put(pipeline, new Reading(max(r.maxEventTime(), maxEventTime), max(r.lastArrival(), lastArrival), r.backlogs()));
    }

    @Override
    public synchronized void recordBacklog(String pipeline, Backlog backlog, Duration idleAfter) {
        Reading r = read(pipeline);
        Backlog held = r.backlogs().isEmpty() ? backlog : Backlog.joined(r.backlogs().get(0), backlog, idleAfter);
        readings.put(pipeline, new Reading(r.maxEventTime(), r.lastArrival(), List.of(held)));
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
