package dev.fanin.core.watermark;

import dev.fanin.core.config.WatermarkSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.window.EventTimeMath;
import java.time.Instant;
import java.util.Optional;

/**
 * The pipeline's event-time watermark: a claim that every on-time event with event time below it has arrived.
 *
 * <pre>
 *   watermark = maxEventTime - outOfOrderness + max(0, now - lastArrival - idleAfter)
 * </pre>
 *
 * The first two terms are bounded out-of-orderness over event time ({@code maxEventTime} taken over
 * {@link #evidenceMillis}: never past an event's arrival). The last term is the idle advance: once no
 * event has arrived for longer than {@code idleAfter} (processing time), the watermark moves forward with processing
 * time, so an idle key or an idle pipeline still closes its windows. While the input queue is known to be behind
 * (a {@link Backlog}), the watermark is capped at the backlog's frontier, so it does not run ahead of the events still
 * waiting in the queue. All arithmetic saturates (no wrap-around).
 *
 * <p>The value is not monotone across arrivals: an event that ends an idle period resets the idle term. Callers
 * that need monotonicity keep the maximum they have acted on; a window once closed stays closed either way.
 */
public final class Watermarks {

    /** The watermark of a pipeline that has never seen an event: before every window. */
    public static final long NO_WATERMARK = Long.MIN_VALUE;

    private Watermarks() {
    }

    /**
     * What one event tells the watermark: its event time, but never later than its arrival. Intake admits an event
     * time up to {@code eventTime.maxFuture} after the message was sent, so one producer whose clock runs ahead would
     * otherwise move the whole pipeline's watermark past real time, and every other key's on-time events would be too
     * late (and its windows fire early) until real time caught up. The event still counts in the window of its own time.
     */
    public static long evidenceMillis(Event event) {
        return evidenceMillis(event.eventTime().toEpochMilli(), event.arrivedAt().toEpochMilli());
    }

    /** As {@link #evidenceMillis(Event)}, for an event time and an arrival (epoch ms). */
    public static long evidenceMillis(long eventTimeMillis, long arrivedAtMillis) {
        return Math.min(eventTimeMillis, arrivedAtMillis);
    }

    /**
     * @param maxEventTimeMillis the newest event time seen by the pipeline, or {@link Long#MIN_VALUE} if none
     * @param lastArrivalMillis  processing time of the latest arrival
     * @param nowMillis          the current processing time
     * @return the watermark in event-time epoch ms; {@link #NO_WATERMARK} when no event was ever seen
     */
    public static long watermarkMillis(WatermarkSpec spec, long maxEventTimeMillis, long lastArrivalMillis, long nowMillis) {
        if (maxEventTimeMillis == Long.MIN_VALUE) {
            return NO_WATERMARK;
        }
        long bounded = EventTimeMath.minus(maxEventTimeMillis, spec.outOfOrderness().toMillis());
        long idleFor = EventTimeMath.minus(EventTimeMath.minus(nowMillis, lastArrivalMillis), spec.idleAfter().toMillis());
        return EventTimeMath.plus(bounded, Math.max(0, idleFor));
    }

    /**
     * As {@link #watermarkMillis(WatermarkSpec, long, long, long)}, capped by the backlog evidence that holds at now,
     * and, while the cap holds it down, when the cap may next lift.
     */
    public static Watermark watermark(WatermarkSpec spec, long maxEventTimeMillis, long lastArrivalMillis, Optional<Backlog> backlog,
                                      long nowMillis) {
        long watermark = watermarkMillis(spec, maxEventTimeMillis, lastArrivalMillis, nowMillis);
        if (watermark == NO_WATERMARK || backlog.isEmpty()) {
            return Watermark.free(watermark);
        }
        long cap = backlog.get().capMillis(nowMillis, spec.idleAfter(), spec.outOfOrderness());
        if (cap >= watermark) {
            return Watermark.free(watermark);
        }
        return new Watermark(cap, watermark, Instant.ofEpochMilli(backlog.get().nextLapseMillis(nowMillis, spec.idleAfter())));
    }

}
