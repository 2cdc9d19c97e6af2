package dev.fanin.core.watermark;

import dev.fanin.core.window.EventTimeMath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Evidence that the input queue is behind the pipeline's watermark, from the delivery facts of messages alone.
 *
 * <p>A message is <em>behind</em> when it waited in the queue (from its sending until a consumer first received it)
 * more than {@code outOfOrderness} plus {@link #QUEUE_LATENCY}: longer than the watermark waits for it, so every event of
 * the queue's backlog sent no earlier than it may still be waiting too (a queue delivers a backlog in any order). The
 * time a poller then holds it to fill a batch (the event source's batching window) is not a backlog: counted, it made
 * every message of a steady stream behind once the window passed outOfOrderness, and the watermark never moved.
 *
 * <p>The watermark is capped at the <em>frontier</em> minus {@code outOfOrderness}: the oldest send time among the
 * behind messages seen in the last {@code idleAfter} (the same processing time after which a silent pipeline counts as
 * idle), kept by intervals of {@code idleAfter} ({@link Sightings}), so a sighting holds for at least {@code idleAfter}
 * and less than twice that:
 *
 * <pre>
 *   watermark &lt;= frontier - outOfOrderness      while a behind message was seen in the last idleAfter
 * </pre>
 *
 * so no window holding an event of the backlog closes by the watermark while the backlog's oldest messages are still
 * coming: every such event was sent at or after the frontier, and an event sent at most {@code outOfOrderness} after
 * it happened ends its window after the cap. A frontier that moves with the evidence lets a queue that stays behind
 * (a steady wait beyond {@code outOfOrderness}) close its windows, later by that wait and up to twice
 * {@code idleAfter}; one pinned at the oldest message of the episode held them until their {@code maxLifetime}. The
 * cap costs no call: the sent times come with every message.
 *
 * @param sightings at most two groups, by the interval of {@code idleAfter} their first sighting fell in, oldest first
 */
public record Backlog(List<Sightings> sightings) {

    /**
     * How long a message of a queue that keeps up may still take to reach a consumer (a long poll's hand-over, the
     * queue's clocks): below it, a wait beyond {@code outOfOrderness} is delivery, not a backlog. Without it, a pipeline
     * with an {@code outOfOrderness} of 0 would find every message behind and hold its watermark for good.
     */
    public static final Duration QUEUE_LATENCY = Duration.ofSeconds(1);

    /** The groups kept: the interval being filled and the one before it, which may still hold. */
    private static final int GROUPS = 2;

    /**
     * Behind messages seen from {@code firstSeenMillis} to {@code seenAtMillis} (processing time, epoch ms), the oldest
     * sent at {@code oldestSentMillis}. A group holds until {@code idleAfter} after its last sighting.
     */
    public record Sightings(long oldestSentMillis, long firstSeenMillis, long seenAtMillis) {

        boolean holdsAt(long nowMillis, Duration idleAfter) {
            return nowMillis < EventTimeMath.plus(seenAtMillis, idleAfter.toMillis());
        }

        Sightings with(Sightings other) {
            return new Sightings(Math.min(oldestSentMillis, other.oldestSentMillis), Math.min(firstSeenMillis, other.firstSeenMillis),
                    Math.max(seenAtMillis, other.seenAtMillis));
        }

        long interval(Duration idleAfter) {
            return Math.floorDiv(firstSeenMillis, Math.max(1, idleAfter.toMillis()));
        }
    }

    public Backlog {
        if (sightings.isEmpty()) {
            throw new IllegalArgumentException("a backlog has at least one sighting");
        }
        sightings = List.copyOf(sightings);
    }

    /** One sighting: the oldest send time among behind messages seen at {@code seenAtMillis}. */
    public Backlog(long oldestSentMillis, long seenAtMillis) {
        this(List.of(new Sightings(oldestSentMillis, seenAtMillis, seenAtMillis)));
    }

    /** Whether a message sent at {@code sentMillis} that left the queue at {@code leftQueueMillis} is behind. */
    public static boolean behind(long sentMillis, long leftQueueMillis, Duration outOfOrderness) {
        return EventTimeMath.minus(leftQueueMillis, sentMillis) > outOfOrderness.plus(QUEUE_LATENCY).toMillis();
    }

    /** The latest sighting. */
    public long seenAtMillis() {
        return sightings.stream().mapToLong(Sightings::seenAtMillis).max().orElseThrow();
    }

    /** The oldest send time of every group kept, whether it still holds or not. */
    public long oldestSentMillis() {
        return sightings.stream().mapToLong(Sightings::oldestSentMillis).min().orElseThrow();
    }

    /** Whether a behind message seen recently enough still holds the watermark at {@code nowMillis}. */
    public boolean holdsAt(long nowMillis, Duration idleAfter) {
        return sightings.stream().anyMatch(s -> s.holdsAt(nowMillis, idleAfter));
    }

    /** The highest watermark the evidence allows at {@code nowMillis}; {@link Long#MAX_VALUE} once none holds. */
    public long capMillis(long nowMillis, Duration idleAfter, Duration outOfOrderness) {
        long frontier = sightings.stream().filter(s -> s.holdsAt(nowMillis, idleAfter)).mapToLong(Sightings::oldestSentMillis)
                .min().orElse(Long.MAX_VALUE);
        return frontier == Long.MAX_VALUE ? frontier : EventTimeMath.minus(frontier, outOfOrderness.toMillis());
    }

    /**
     * This evidence starting an episode (nothing held before it): its oldest group reaching back to
     * {@code lastArrivalMillis}, the pipeline's last arrival before it (when positive and older), since its queue may
     * hold anything sent since then, though the first behind messages delivered (in any order) may be newer; by at most
     * {@code idleAfter}: an outage longer than that lets the idle advance move the watermark anyway (a documented
     * limit), and a deeper reach would let one late message make old events on time.
     */
    public Backlog reachingBack(long lastArrivalMillis, Duration idleAfter) {
        Sightings oldest = sightings.get(0);
        long reach = Math.max(lastArrivalMillis, EventTimeMath.minus(oldest.oldestSentMillis(), idleAfter.toMillis()));
        if (reach <= 0 || reach >= oldest.oldestSentMillis()) {
            return this;
        }
        List<Sightings> reached = new ArrayList<>(sightings);
        reached.set(0, new Sightings(reach, oldest.firstSeenMillis(), oldest.seenAtMillis()));
        return new Backlog(reached);
    }

    /** One group of both, whenever each was seen: what one batch's deliveries say together. */
    public Backlog merged(Backlog other) {
        Sightings all = sightings.get(0);
        for (Sightings s : concat(this, other)) {
            all = all.with(s);
        }
        return new Backlog(List.of(all));
    }

    /**
     * The evidence of both, whatever order they were seen in: what a shard holds after two writers that each read it
     * before the other wrote. Groups that no longer held at the latest sighting are dropped (that episode ended), groups
     * first seen in the same interval of {@code idleAfter} are one, and of more than {@link #GROUPS} the older ones are
     * one (held as long as the latest of them: never less than either alone).
     */
    public static Backlog joined(Backlog a, Backlog b, Duration idleAfter) {
        long latest = Math.max(a.seenAtMillis(), b.seenAtMillis());
        Map<Long, Sightings> byInterval = new TreeMap<>();
        for (Sightings s : concat(a, b)) {
            if (s.holdsAt(latest, idleAfter)) {
                byInterval.merge(s.interval(idleAfter), s, Sightings::with);
            }
        }
        List<Sightings> kept = new ArrayList<>(byInterval.values());
        while (kept.size() > GROUPS) {
            kept.set(1, kept.get(0).with(kept.get(1)));
            kept.remove(0);
        }
        kept.sort(Comparator.comparingLong(Sightings::firstSeenMillis));
        return new Backlog(kept);
    }

    /**
     * Whether writing {@code other} after this is needless: each of its groups is one of these, with no older send time
     * and seen again within {@code slack} of it (the hold then ends at most that much early).
     */
    public boolean covers(Backlog other, Duration slack, Duration idleAfter) {
        return other.sightings.stream().allMatch(o -> sightings.stream().anyMatch(s -> s.interval(idleAfter) == o.interval(idleAfter)
                && s.oldestSentMillis() <= o.oldestSentMillis() && s.firstSeenMillis() <= o.firstSeenMillis()
                && o.seenAtMillis() < EventTimeMath.plus(s.seenAtMillis(), slack.toMillis())));
    }

    /** The evidence in force at {@code nowMillis} among stored pieces (one per writer), if any: the groups that hold. */
    public static Optional<Backlog> inForce(Collection<Backlog> pieces, long nowMillis, Duration idleAfter) {
        Backlog held = null;
        for (Backlog b : pieces) {
            List<Sightings> holding = b.sightings.stream().filter(s -> s.holdsAt(nowMillis, idleAfter)).toList();
            if (!holding.isEmpty()) {
                Backlog piece = new Backlog(holding);
                held = held == null ? joined(piece, piece, idleAfter) : joined(held, piece, idleAfter);
            }
        }
        return Optional.ofNullable(held);
    }

    private static List<Sightings> concat(Backlog a, Backlog b) {
        List<Sightings> all = new ArrayList<>(a.sightings);
        all.addAll(b.sightings);
        return all;
    }
}
