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
 * <p>An outage is different: its queue holds messages nobody has seen yet, sent since the pipeline's last arrival. The
 * evidence that ends it reaches back to that arrival ({@link #reachingBack}), and that {@link Floor} stays while
 * messages sent before the consumers were back keep coming, whatever order the drain takes. Each outage has its own
 * floor, which lifts on its own: merged, a floor still holding would carry an older outage's into every next one, and
 * short stalls repeated within {@code idleAfter} would hold the watermark for good. The floors several writers lay
 * for one outage at once are one.
 *
 * @param sightings at most two groups, by the interval of {@code idleAfter} their first sighting fell in, oldest first
 * @param floors    what outages left, while their messages keep coming, by when the consumers were back
 */
public record Backlog(List<Sightings> sightings, List<Floor> floors) {

    /**
     * How long a message of a queue that keeps up may still take to reach a consumer (a long poll's hand-over, the
     * queue's clocks): below it, a wait beyond {@code outOfOrderness} is delivery, not a backlog. Without it, a pipeline
     * with an {@code outOfOrderness} of 0 would find every message behind and hold its watermark for good.
     */
    public static final Duration QUEUE_LATENCY = Duration.ofSeconds(1);

    /** The groups kept: the interval being filled and the one before it, which may still hold. */
    private static final int GROUPS = 2;
    /** The floors kept; past it, the two closest are one (held as long as the later of them: never less than either). */
    private static final int FLOORS = 16;

    /**
     * Behind messages seen from {@code firstSeenMillis} to {@code seenAtMillis} (processing time, epoch ms), the oldest
     * sent at {@code oldestSentMillis}. A group holds until {@code idleAfter} after its last sighting.
     */
    public record Sightings(long oldestSentMillis, long firstSeenMillis, long seenAtMillis) {

        boolean holdsAt(long nowMillis, Duration idleAfter) {
            return Backlog.holdsAt(seenAtMillis, nowMillis, idleAfter);
        }

        Sightings with(Sightings other) {
            return new Sightings(Math.min(oldestSentMillis, other.oldestSentMillis), Math.min(firstSeenMillis, other.firstSeenMillis),
                    Math.max(seenAtMillis, other.seenAtMillis));
        }

        long interval(Duration idleAfter) {
            return Math.floorDiv(firstSeenMillis, Math.max(1, idleAfter.toMillis()));
        }
    }

    /**
     * An outage's backlog: every message sent from {@code oldestSentMillis} (the pipeline's last arrival before it, or
     * an older message of it seen since) until {@code resumedAtMillis} (when behind messages came again) may still be
     * queued. It holds until {@code idleAfter} after the last sighting of such a message, {@code seenAtMillis}: a drain
     * in any order brings them along until the outage's part of the queue is empty. A queue that stays behind after
     * the outage sends newer messages only, so the floor lifts and the frontier moves.
     */
    public record Floor(long oldestSentMillis, long resumedAtMillis, long seenAtMillis) {

        boolean holdsAt(long nowMillis, Duration idleAfter) {
            return Backlog.holdsAt(seenAtMillis, nowMillis, idleAfter);
        }

        Floor with(Floor other) {
            return new Floor(Math.min(oldestSentMillis, other.oldestSentMillis), Math.max(resumedAtMillis, other.resumedAtMillis),
                    Math.max(seenAtMillis, other.seenAtMillis));
        }

        /**
         * This floor after {@code s} was seen: held on, and lowered, by messages sent before the consumers were back and
         * all seen since (a group first seen before may hold an earlier outage's messages, whose own floor and groups
         * hold them: taken here, they would chain the floors of outages in a row into one).
         */
        Floor seeing(Sightings s) {
            boolean ofThisOutage = s.oldestSentMillis() < resumedAtMillis && s.firstSeenMillis() >= resumedAtMillis;
            return !ofThisOutage ? this : new Floor(Math.min(oldestSentMillis, s.oldestSentMillis()), resumedAtMillis,
                    Math.max(seenAtMillis, s.seenAtMillis()));
        }
    }

    public Backlog {
        if (sightings.isEmpty()) {
            throw new IllegalArgumentException("a backlog has at least one sighting");
        }
        sightings = List.copyOf(sightings);
        floors = List.copyOf(floors);
    }

    public Backlog(List<Sightings> sightings) {
        this(sightings, List.of());
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

    /** Evidence last seen at {@code seenAtMillis} holds the watermark until {@code idleAfter} after it. */
    private static boolean holdsAt(long seenAtMillis, long nowMillis, Duration idleAfter) {
        return nowMillis < EventTimeMath.plus(seenAtMillis, idleAfter.toMillis());
    }

    /** The highest watermark the evidence allows at {@code nowMillis}; {@link Long#MAX_VALUE} once none holds. */
    public long capMillis(long nowMillis, Duration idleAfter, Duration outOfOrderness) {
        long frontier = sightings.stream().filter(s -> s.holdsAt(nowMillis, idleAfter)).mapToLong(Sightings::oldestSentMillis)
                .min().orElse(Long.MAX_VALUE);
        frontier = Math.min(frontier, floors.stream().filter(f -> f.holdsAt(nowMillis, idleAfter)).mapToLong(Floor::oldestSentMillis)
                .min().orElse(Long.MAX_VALUE));
        return frontier == Long.MAX_VALUE ? frontier : EventTimeMath.minus(frontier, outOfOrderness.toMillis());
    }

    /**
     * The next moment the cap may rise after {@code nowMillis}: {@code idleAfter} after the last sighting of the
     * earliest piece that holds then; {@link Long#MAX_VALUE} when none holds.
     */
    public long nextLapseMillis(long nowMillis, Duration idleAfter) {
        long sighted = sightings.stream().filter(s -> s.holdsAt(nowMillis, idleAfter)).mapToLong(Sightings::seenAtMillis).min()
                .orElse(Long.MAX_VALUE);
        long floored = floors.stream().filter(f -> f.holdsAt(nowMillis, idleAfter)).mapToLong(Floor::seenAtMillis).min()
                .orElse(Long.MAX_VALUE);
        long earliest = Math.min(sighted, floored);
        return earliest == Long.MAX_VALUE ? earliest : EventTimeMath.plus(earliest, idleAfter.toMillis());
    }

    /**
     * This evidence after an outage: when the pipeline's last arrival before it ({@code lastArrivalMillis}, when
     * positive) is older than every message it saw, nothing arrived while those were sent, and the queue may hold
     * anything sent since that arrival, though the first behind messages delivered (in any order) may be newer ones.
     * The evidence then carries a {@link Floor} there, by at most {@code idleAfter} below its oldest message: an outage
     * longer than that lets the idle advance move the watermark anyway (a documented limit), and a deeper reach would
     * let one late message make old events on time. A queue that stays behind keeps arriving, so it reaches nothing.
     */
    public Backlog reachingBack(long lastArrivalMillis, Duration idleAfter) {
        long oldest = sightings.stream().mapToLong(Sightings::oldestSentMillis).min().orElseThrow();
        long reach = Math.max(lastArrivalMillis, EventTimeMath.minus(oldest, idleAfter.toMillis()));
        if (reach <= 0 || reach >= oldest) {
            return this;
        }
        long seenAt = seenAtMillis();
        Floor reached = new Floor(reach, seenAt, seenAt);
        return new Backlog(sightings, concat(floors, List.of(reached)));
    }

    /** One group of both, whenever each was seen: what one batch's deliveries say together. */
    public Backlog merged(Backlog other) {
        Sightings all = sightings.get(0);
        for (Sightings s : concat(sightings, other.sightings)) {
            all = all.with(s);
        }
        return new Backlog(List.of(all), concat(floors, other.floors));
    }

    /**
     * The evidence of both, whatever order they were seen in: what a shard holds after two writers that each read it
     * before the other wrote. Groups that no longer held at the latest sighting are dropped (that episode ended), groups
     * first seen in the same interval of {@code idleAfter} are one, and of more than {@link #GROUPS} the older ones are
     * one (held as long as the latest of them: never less than either alone). Floors that no longer held at the latest
     * sighting are dropped, each other one is held on by every group all seen since its consumers were back with a
     * message sent before ({@link Floor#seeing}), and floors of the same outage are one ({@link #byOutage}).
     */
    public static Backlog joined(Backlog a, Backlog b, Duration idleAfter) {
        long latest = Math.max(a.seenAtMillis(), b.seenAtMillis());
        List<Floor> floors = new ArrayList<>();
        for (Floor f : concat(a.floors, b.floors)) {
            if (f.holdsAt(latest, idleAfter)) {
                Floor seen = f;
                for (Sightings s : concat(a.sightings, b.sightings)) {
                    seen = seen.seeing(s);
                }
                floors.add(seen);
            }
        }
        floors = byOutage(floors);
        Map<Long, Sightings> byInterval = new TreeMap<>();
        for (Sightings s : concat(a.sightings, b.sightings)) {
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
        return new Backlog(kept, floors);
    }

    /**
     * Floors of one outage as one: those laid within {@link #QUEUE_LATENCY} of each other, as by the first batches that
     * several consumers take at once after an outage, each before any other wrote; then, of more than {@link #FLOORS},
     * the two closest as one. Floors of outages apart stay apart, so each lifts on its own (their spans may overlap:
     * the last arrival they reach back to is the stored one, which may lag by seconds).
     */
    private static List<Floor> byOutage(List<Floor> floors) {
        List<Floor> sorted = new ArrayList<>(floors);
        sorted.sort(Comparator.comparingLong(Floor::resumedAtMillis));
        List<Floor> outages = new ArrayList<>();
        for (Floor f : sorted) {
            int last = outages.size() - 1;
            if (last >= 0 && f.resumedAtMillis() - outages.get(last).resumedAtMillis() <= QUEUE_LATENCY.toMillis()) {
                outages.set(last, outages.get(last).with(f));
            } else {
                outages.add(f);
            }
        }
        while (outages.size() > FLOORS) {
            int closest = 0;
            for (int i = 1; i + 1 < outages.size(); i++) {
                if (gap(outages, i) < gap(outages, closest)) {
                    closest = i;
                }
            }
            outages.set(closest, outages.get(closest).with(outages.remove(closest + 1)));
        }
        return outages;
    }

    private static long gap(List<Floor> outages, int i) {
        return outages.get(i + 1).resumedAtMillis() - outages.get(i).resumedAtMillis();
    }

    /**
     * Whether writing {@code other} after this is needless: each of its groups is one of these, with no older send time
     * and seen again within {@code slack} of it (the hold then ends at most that much early).
     */
    public boolean covers(Backlog other, Duration slack, Duration idleAfter) {
        boolean groups = other.sightings.stream().allMatch(o -> sightings.stream().anyMatch(s -> s.interval(idleAfter) == o.interval(idleAfter)
                && s.oldestSentMillis() <= o.oldestSentMillis() && s.firstSeenMillis() <= o.firstSeenMillis()
                && o.seenAtMillis() < EventTimeMath.plus(s.seenAtMillis(), slack.toMillis())));
        return groups && other.floors.stream().allMatch(o -> floors.stream().anyMatch(f -> f.resumedAtMillis() == o.resumedAtMillis()
                && f.oldestSentMillis() <= o.oldestSentMillis() && o.seenAtMillis() < EventTimeMath.plus(f.seenAtMillis(), slack.toMillis())));
    }

    /** The evidence in force at {@code nowMillis} among stored pieces (one per writer), if any: the groups that hold. */
    public static Optional<Backlog> inForce(Collection<Backlog> pieces, long nowMillis, Duration idleAfter) {
        Backlog held = null;
        for (Backlog b : pieces) {
            List<Sightings> holding = b.sightings.stream().filter(s -> s.holdsAt(nowMillis, idleAfter)).toList();
            if (!holding.isEmpty()) {
                Backlog piece = new Backlog(holding, b.floors.stream().filter(f -> f.holdsAt(nowMillis, idleAfter)).toList());
                held = held == null ? joined(piece, piece, idleAfter) : joined(held, piece, idleAfter);
            }
        }
        return Optional.ofNullable(held);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
