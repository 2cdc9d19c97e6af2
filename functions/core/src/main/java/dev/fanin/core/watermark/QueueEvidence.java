package dev.fanin.core.watermark;

import dev.fanin.core.window.EventTimeMath;
import java.time.Duration;
import java.util.Optional;

/**
 * What one batch's deliveries say about the input queue, for one pipeline: the {@link Backlog} evidence of its first
 * deliveries, which is stored so that the sweeper and the timers hold the watermark too, and that of all its
 * deliveries, which holds only this batch's own watermark. A redelivery is behind because an earlier attempt failed,
 * not because the queue is: its own events are judged as if delivered when sent, but one message failing for
 * minutes does not hold the whole pipeline.
 */
public record QueueEvidence(Optional<Backlog> firstDeliveries, Optional<Backlog> all) {

    /** A batch whose messages were all delivered promptly (or carried no send time). */
    public static final QueueEvidence NONE = new QueueEvidence(Optional.empty(), Optional.empty());

    /**
     * This evidence and one more message, sent at {@code sentMillis}, out of the queue at {@code leftQueueMillis} (first
     * received by a consumer) and delivered to fanin at {@code deliveredMillis}. The batch's own watermark waits for
     * every message that reached fanin later than outOfOrderness, whatever held it (the queue, a throttled or cold
     * invocation, a batching window, its earlier attempts). What is stored, and holds the sweeper and the timers too,
     * is a backlog in the queue: a first delivery that waited there ({@link Backlog#behind}).
     */
    public QueueEvidence with(long sentMillis, int deliveryAttempt, long leftQueueMillis, long deliveredMillis, Duration outOfOrderness) {
        Backlog b = new Backlog(sentMillis, deliveredMillis);
        boolean reachedLate = EventTimeMath.minus(deliveredMillis, sentMillis) > outOfOrderness.toMillis();
        boolean queued = deliveryAttempt <= 1 && Backlog.behind(sentMillis, leftQueueMillis, outOfOrderness);
        return new QueueEvidence(queued ? Optional.of(join(firstDeliveries, b)) : firstDeliveries, reachedLate ? Optional.of(join(all, b)) : all);
    }

    private static Backlog join(Optional<Backlog> known, Backlog b) {
        return known.map(k -> k.merged(b)).orElse(b);
    }
}
