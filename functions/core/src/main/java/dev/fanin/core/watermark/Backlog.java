package dev.fanin.core.watermark;

import dev.fanin.core.window.EventTimeMath;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;

/**
 * Evidence that the input queue is behind the pipeline's watermark, from the delivery facts of messages alone.
 *
 * <p>A message is <em>behind</em> when it waited in the queue (from its sending until a consumer first received it)
 * more than {@code outOfOrderness} plus {@link #QUEUE_LATENCY}: longer than the watermark waits for it, so every event of
 * the queue's backlog sent no earlier than it may still be waiting too (a queue delivers a backlog in any order). The
 * time a poller then holds it to fill a batch (the event source's batching window) is not a backlog: counted, it made
 * every message of a steady stream behind once the window passed outOfOrderness, and the watermark never moved. A
 * <em>backlog episode</em> lasts while behind messages keep coming: it ends once none has come for {@code idleAfter}
 * (the same processing time after which a silent pipeline counts as idle). While an episode lasts, the watermark is
 * capped at the episode's frontier minus {@code outOfOrderness}:
 *
 * <pre>
 *   watermark &lt;= oldestSent - outOfOrderness      while now &lt; seenAt + idleAfter
 * </pre>
 *
 * so no window holding an event of the backlog closes by the watermark before the backlog is delivered: every such
 * event was sent at or after {@code oldestSent}, and an event sent at most {@code outOfOrderness} after it happened
 * ends its window after the cap. The cap costs no call: the sent times come with every message.
 *
 * @param oldestSentMillis the oldest send time among the episode's behind messages (epoch ms)
 * @param seenAtMillis     processing time of the latest behind message of the episode (epoch ms)
 */
public record Backlog(long oldestSentMillis, long seenAtMillis) {

    /**
     * How long a message of a queue that keeps up may still take to reach a consumer (a long poll's hand-over, the
     * queue's clocks): below it, a wait beyond {@code outOfOrderness} is delivery, not a backlog. Without it, a pipeline
     * with an {@code outOfOrderness} of 0 would find every message behind and hold its watermark for good.
     */
    public static final Duration QUEUE_LATENCY = Duration.ofSeconds(1);

    /** Whether a message sent at {@code sentMillis} that left the queue at {@code leftQueueMillis} is behind. */
    public static boolean behind(long sentMillis, long leftQueueMillis, Duration outOfOrderness) {
        return EventTimeMath.minus(leftQueueMillis, sentMillis) > outOfOrderness.plus(QUEUE_LATENCY).toMillis();
    }

    /** Whether the episode still holds the watermark at {@code nowMillis}. */
    public boolean holdsAt(long nowMillis, Duration idleAfter) {
        return nowMillis < EventTimeMath.plus(seenAtMillis, idleAfter.toMillis());
    }

    /**
     * This evidence starting an episode: reaching back to {@code lastArrivalMillis}, the pipeline's last arrival before
     * it (when positive and older), since its queue may hold anything sent since then, though the first behind messages
     * delivered (in any order) may be newer; by at most {@code idleAfter}: an outage longer than that lets the idle
     * advance move the watermark anyway (a documented limit), and a deeper reach would let one late message make old
     * events on time.
     */
    public Backlog reachingBack(long lastArrivalMillis, Duration idleAfter) {
        long reach = Math.max(lastArrivalMillis, EventTimeMath.minus(oldestSentMillis, idleAfter.toMillis()));
        return reach > 0 && reach < oldestSentMillis ? new Backlog(reach, seenAtMillis) : this;
    }

    /** The highest watermark the episode allows. */
    public long capMillis(Duration outOfOrderness) {
        return EventTimeMath.minus(oldestSentMillis, outOfOrderness.toMillis());
    }

    /**
     * This episode followed by {@code later} evidence: one episode (the older frontier, the later sighting) if this one
     * still held when the later evidence was seen, else the later evidence starts a new episode.
     */
    public Backlog then(Backlog later, Duration idleAfter) {
        if (!holdsAt(later.seenAtMillis, idleAfter)) {
            return later.seenAtMillis >= seenAtMillis ? later : this;
        }
        return merged(later);
    }

    /** One episode of both, whenever each was seen: the older frontier, the later sighting. */
    public Backlog merged(Backlog other) {
        return new Backlog(Math.min(oldestSentMillis, other.oldestSentMillis), Math.max(seenAtMillis, other.seenAtMillis));
    }

    /**
     * One piece of evidence for two, whatever order they were seen in: the earlier one {@link #then} the later. What a
     * shard holds after two writers that each read it before the other wrote.
     */
    public static Backlog joined(Backlog a, Backlog b, Duration idleAfter) {
        return a.seenAtMillis <= b.seenAtMillis ? a.then(b, idleAfter) : b.then(a, idleAfter);
    }

    /**
     * The episode in force at {@code nowMillis} among stored pieces of evidence (one per writer), if any: the pieces
     * that still hold, as one episode.
     */
    public static Optional<Backlog> inForce(Collection<Backlog> pieces, long nowMillis, Duration idleAfter) {
        Backlog episode = null;
        for (Backlog b : pieces) {
            if (b.holdsAt(nowMillis, idleAfter)) {
                episode = episode == null ? b : episode.merged(b);
            }
        }
        return Optional.ofNullable(episode);
    }
}
