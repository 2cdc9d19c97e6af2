package dev.fanin.core.watermark;

import dev.fanin.core.window.EventTimeMath;
import java.time.Duration;

/**
 * Whether an ingest batch must store its watermark inputs, or may leave the stored ones standing: at one event per
 * batch that write was about one write unit per event.
 *
 * <p>Readers compute {@code maxEventTime - outOfOrderness + max(0, now - lastArrival - idleAfter)} from the stored
 * maxima ({@link Watermarks}). Leaving the stored {@code (T, A)} in place of {@code (T', A') = (max(T, t), max(A, s))},
 * for a batch whose newest event time is {@code t} and which would store the time {@code s} of its write, lowers no
 * reader's watermark by more than {@code T' - T} and raises none by more than {@code (T - A) - (T' - A')}: the first
 * is close latency, the second how early the idle advance may start. So a batch skips the write only when
 * <ul>
 *   <li>its lead (newest event time less write time) is no worse than the stored lead, within {@link #TOLERANCE}
 *   (the 1 s the store's granularity already allows), so the idle advance starts at most that early;</li>
 *   <li>its newest event time is within {@link #SLACK} of the stored one: a window waiting on the watermark closes
 *   once events that much newer are stored, or the idle advance has covered it (a pipeline gone idle closes its
 *   windows as with the write, since the idle advance depends on the lead alone, unless a later write had to store an
 *   arrival with the older newest event time);</li>
 *   <li>it carries fewer than {@link #SHARED_BY} of the pipeline's events: a write shared by that many costs at most
 *   a tenth of a unit each, not worth any latency.</li>
 * </ul>
 *
 * <p>The decision uses the reading the batch started with. That suffices because every writer stores as its arrival
 * the time of its write, not its batch's start: a shard written after this batch's read holds an arrival later than
 * this batch's own, so no later reader misses it; one written before the read is in the reading.
 */
public final class StoredAdvance {

    /** How far the stored newest event time may trail a batch's that skips its write. */
    public static final Duration SLACK = Duration.ofSeconds(5);

    /** How much a skipping batch's lead may fall short of the stored one. */
    public static final Duration TOLERANCE = Duration.ofSeconds(1);

    /** A batch with at least this many events of the pipeline always writes. */
    public static final int SHARED_BY = 10;

    private StoredAdvance() {
    }

    /**
     * @param storedMaxEventTime the newest event time of the reading the batch started with, epoch ms (0: none)
     * @param storedLastArrival  its latest arrival, epoch ms (0: none)
     * @param maxEventTime       the batch's newest event time, epoch ms
     * @param writeAt            the time the batch would store as its arrival: now, at the write
     * @param events             the batch's events of this pipeline
     */
    public static boolean needed(long storedMaxEventTime, long storedLastArrival, long maxEventTime, long writeAt, int events) {
        if (events >= SHARED_BY || storedLastArrival <= 0) {
            return true;
        }
        long t = Math.max(storedMaxEventTime, maxEventTime);
        long a = Math.max(storedLastArrival, writeAt);
        if (EventTimeMath.minus(t, storedMaxEventTime) > SLACK.toMillis()) {
            return true;
        }
        long storedLead = EventTimeMath.minus(storedMaxEventTime, storedLastArrival);
        long lead = EventTimeMath.minus(t, a);
        return EventTimeMath.minus(storedLead, lead) > TOLERANCE.toMillis();
    }
}
