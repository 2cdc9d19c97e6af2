package dev.fanin.sim;

import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.watermark.Backlog;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** A {@link WatermarkStore} decorator that injects crashes and throttling around every call. */
public final class FaultyWatermarkStore implements WatermarkStore {

    private final WatermarkStore inner;
    private final Faults faults;

    public FaultyWatermarkStore(WatermarkStore inner, Faults faults) {
        this.inner = inner;
        this.faults = faults;
    }

    @Override
    public Reading read(String pipeline) {
        faults.beforeCall("watermark read", List.of(), true);
        Reading r = inner.read(pipeline);
        faults.afterCall("watermark read", List.of());
        return r;
    }

    @Override
    public void advance(String pipeline, Instant maxEventTime, Instant lastArrival) {
        faults.beforeCall("watermark advance", List.of(), true);
        inner.advance(pipeline, maxEventTime, lastArrival);
        faults.afterCall("watermark advance", List.of());
    }

    @Override
    public void recordBacklog(String pipeline, Backlog backlog, Duration idleAfter) {
        faults.beforeCall("watermark backlog", List.of(), true);
        inner.recordBacklog(pipeline, backlog, idleAfter);
        faults.afterCall("watermark backlog", List.of());
    }
}
