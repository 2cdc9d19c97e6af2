package dev.fanin.core.service;

import dev.fanin.core.port.WindowStore;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one sweep run does, decided before it reads anything: which due-bucket shards it lists and in what order, how
 * many shards at once, how many entries it may visit, when it stops, and how what is still due is listed again.
 * Pure: the settings, the shard count and the run's start and deadline in, the plan out.
 *
 * @param shardOrder the shards, listed in this order (each page by page until its last page or the stop): the
 *                   configured ones; in a run over every shard, the ones past them first (the scheduled runs list the
 *                   configured ones every minute, so a run cut short by its budget or time still reads the others)
 * @param threads    shards worked on at once; 1 means one after the other with one set of follow-ups per pipeline
 * @param budget     due-bucket entries the run visits at most (per shard thread, so more threads buy more visits)
 * @param deadline   processing time at which the run stops taking new entries
 */
record SweepPlan(List<Integer> shardOrder, int threads, int budget, Instant deadline) {

    /**
     * At most this many windows in one bucket the sweeper lists again. A bucket goes to the shard of its first entry
     * and one shard thread visits it, so windows falling due together (every key's window of a tumbling pipeline) go
     * to several buckets, over several shards, and the run's threads share them. At about 60 bytes an entry, a
     * bucket of 100 is about 6 KB: what the split adds is an item's key and rounding, under a tenth of its units.
     */
    static final int RELISTED_PER_BUCKET = 100;

    /** How long a rotation of the first shard lasts: runs within one minute start at the same shard. */
    static final Duration ROTATION = Duration.ofMinutes(1);

    SweepPlan {
        shardOrder = List.copyOf(shardOrder);
    }

    /** A scheduled run: the configured shards. */
    static SweepPlan of(FaninSettings settings, int shards, Instant start, Instant deadline) {
        return of(settings, shards, start, deadline, false);
    }

    /**
     * @param everyShard also the shards past the configured ones, up to {@link WindowStore#MAX_DUE_SHARDS}: where a
     *                   deployment with more shards left buckets (the hourly run over every shard; lowering
     *                   DueShards so strands no window)
     */
    static SweepPlan of(FaninSettings settings, int shards, Instant start, Instant deadline, boolean everyShard) {
        // Rotate the first shard between runs so a budget cut does not always starve the same shards.
        int first = (int) Math.floorMod(rotation(start), (long) shards);
        List<Integer> order = new ArrayList<>();
        for (int past = shards; everyShard && past < WindowStore.MAX_DUE_SHARDS; past++) {
            order.add(past);
        }
        for (int i = 0; i < shards; i++) {
            order.add((first + i) % shards);
        }
        int parallelism = settings.sweepParallelism();
        return new SweepPlan(order, Math.min(parallelism, order.size()), settings.sweepMaxWindows() * Math.max(1, parallelism), deadline);
    }

    /**
     * {@code pipelines} from one that changes every minute, as the first shard does: every pipeline shares the run's
     * budget and time, so a run that one pipeline's backlog cuts short must not always leave the same others unswept
     * (retired ones come last in the configuration's order). The hourly run over every shard ({@code everyShard})
     * starts at the same minute of each hour, so it turns every hour: by the minute, any number of pipelines that
     * divides 60 would start it at the same one every hour.
     */
    static <T> List<T> inTurn(List<T> pipelines, Instant start, boolean everyShard) {
        if (pipelines.isEmpty()) {
            return pipelines;
        }
        long turn = everyShard ? start.getEpochSecond() / Duration.ofHours(1).toSeconds() : rotation(start);
        int first = (int) Math.floorMod(turn, (long) pipelines.size());
        List<T> order = new ArrayList<>(pipelines.subList(first, pipelines.size()));
        order.addAll(pipelines.subList(0, first));
        return order;
    }

    /** Which rotation a run starting at {@code start} is in: runs of the same minute start at the same shard and pipeline. */
    private static long rotation(Instant start) {
        return start.getEpochSecond() / ROTATION.toSeconds();
    }

    /** Whether a run that has visited {@code visited} entries stops at {@code now}: out of budget, or of time. */
    boolean stops(int visited, Instant now) {
        return visited >= budget || !now.isBefore(deadline);
    }

    /** A window to list again: when, until when the listing must outlive the window, and when it was recorded. */
    record Relisting(Instant nextVisit, Instant expiresAt, long sequence) {

        static Relisting earlier(Relisting a, Relisting b) {
            return new Relisting(a.nextVisit().isBefore(b.nextVisit()) ? a.nextVisit() : b.nextVisit(),
                    a.expiresAt().isAfter(b.expiresAt()) ? a.expiresAt() : b.expiresAt(), Math.max(a.sequence(), b.sequence()));
        }
    }

    /**
     * One due bucket to write: when it falls due, the windows it lists, and the expiry it must outlive (the latest of
     * theirs).
     */
    record Listing(Instant dueAt, List<WindowRef> entries, Instant expiresAt) {

        Listing {
            entries = List.copyOf(entries);
        }
    }

    /**
     * The due buckets that list {@code relisted} again, in due order: each window in the bucket of its next visit
     * rounded down to {@code grid} (early by less than the grid, so that windows due within one step share a bucket),
     * at most {@link #RELISTED_PER_BUCKET} to a bucket.
     */
    static List<Listing> listings(Map<WindowRef, Relisting> relisted, Duration grid) {
        long step = grid.toMillis();
        TreeMap<Instant, List<Map.Entry<WindowRef, Relisting>>> bySlot = new TreeMap<>();
        relisted.entrySet().forEach(e -> bySlot.computeIfAbsent(
                Instant.ofEpochMilli(Math.floorDiv(e.getValue().nextVisit().toEpochMilli(), step) * step), s -> new ArrayList<>()).add(e));
        List<Listing> listings = new ArrayList<>();
        bySlot.forEach((slot, windows) -> {
            for (int from = 0; from < windows.size(); from += RELISTED_PER_BUCKET) {
                List<Map.Entry<WindowRef, Relisting>> group = windows.subList(from, Math.min(windows.size(), from + RELISTED_PER_BUCKET));
                Instant expiresAt = group.stream().map(e -> e.getValue().expiresAt()).max(Instant::compareTo).orElseThrow();
                listings.add(new Listing(slot, group.stream().map(Map.Entry::getKey).toList(), expiresAt));
            }
        });
        return listings;
    }
}
