package dev.fanin.core.memory;

import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@link WindowStore} in memory with the semantics the DynamoDB adapter provides: every write conditional on the
 * version read (or on absence, for a create), atomic multi-window replace, open-window slots counted per admission
 * epoch with the bound checked atomically with each reservation, and due buckets kept apart from the windows (as
 * DynamoDB keeps them in items of their own). Used by the replay tool, the
 * deterministic simulation and the benchmark; the differential test checks it against DynamoDB.
 *
 * <p>Thread-safe (one lock): concurrency here is about interleaving, not throughput.
 */
public final class InMemoryWindowStore implements WindowStore {

    private final int dueShards;
    private final Map<WindowRef, StoredWindow> windows = new HashMap<>();
    private final Map<String, Slots> slotsByPipeline = new HashMap<>();
    /** Due buckets by pipeline and shard, by id (the due time zero-padded, then a sequence number: as long as DynamoDB's). */
    private final Map<String, TreeMap<String, StoredBucket>> buckets = new HashMap<>();
    private long bucketSequence;
    private long bucketWrites;
    private long writes;

    public InMemoryWindowStore(int dueShards) {
        this.dueShards = dueShards;
    }

    @Override
    public synchronized Optional<StoredWindow> load(WindowRef ref) {
        return Optional.ofNullable(windows.get(ref));
    }

    @Override
    public synchronized List<StoredWindow> loadKey(String pipeline, String key) {
        return windows.values().stream()
                .filter(w -> w.ref().pipeline().equals(pipeline) && w.ref().key().equals(key))
                .sorted(Comparator.comparing(w -> w.ref().windowId()))
                .toList();
    }

    @Override
    public synchronized WriteOutcome create(StoredWindow window) {
        if (window.version() != 0) {
            throw new IllegalArgumentException("create needs a new window (version 0): " + window.ref());
        }
        if (windows.containsKey(window.ref())) {
            return WriteOutcome.rejected(WriteOutcome.Rejection.CONFLICT, 0);
        }
        windows.put(window.ref(), withVersion(window, 1));
        writes++;
        return WriteOutcome.applied(1);
    }

    @Override
    public synchronized WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        return replaceAll(List.of(previous), List.of(next));
    }

    @Override
    public synchronized WriteOutcome replaceAll(List<StoredWindow> previous, List<StoredWindow> next) {
        if (previous.size() != next.size()) {
            throw new IllegalArgumentException("previous and next differ in size");
        }
        for (StoredWindow p : previous) {
            StoredWindow current = windows.get(p.ref());
            if (current == null || current.version() != p.version()) {
                return WriteOutcome.rejected(WriteOutcome.Rejection.CONFLICT, 0);
            }
        }
        for (int i = 0; i < next.size(); i++) {
            StoredWindow p = previous.get(i);
            StoredWindow n = next.get(i);
            if (!p.ref().equals(n.ref())) {
                throw new IllegalArgumentException("previous " + p.ref() + " pairs with next " + n.ref());
            }
            windows.put(n.ref(), withVersion(n, p.version() + 1));
            writes++;
        }
        return WriteOutcome.applied(next.size());
    }

    @Override
    public synchronized void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        if (entries.isEmpty()) {
            return;
        }
        int shard = shardOf(entries.get(0));
        String id = String.format("%013d#%016x", dueAt.toEpochMilli(), ++bucketSequence);
        buckets.computeIfAbsent(pipeline + "#" + shard, k -> new TreeMap<>())
                .put(id, new StoredBucket(new DueBucket(pipeline, shard, id, dueAt, entries), expiresAt));
        bucketWrites++;
    }

    @Override
    public synchronized DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        TreeMap<String, StoredBucket> shardBuckets = buckets.getOrDefault(pipeline + "#" + shard, new TreeMap<>());
        // Ids start with the zero-padded due time: every id of a bucket due by dueBy sorts before this bound.
        String bound = String.format("%013d$", dueBy.toEpochMilli());
        Map<String, StoredBucket> page = cursor == null ? shardBuckets.headMap(bound) : shardBuckets.subMap(cursor, false, bound, false);
        List<DueBucket> found = new ArrayList<>();
        for (StoredBucket stored : page.values()) {
            if (found.size() >= limit) {
                return new DuePage(found, found.get(found.size() - 1).id());
            }
            found.add(stored.bucket());
        }
        return new DuePage(found, null);
    }

    @Override
    public synchronized void removeDue(List<DueBucket> handled) {
        for (DueBucket bucket : handled) {
            TreeMap<String, StoredBucket> shardBuckets = buckets.get(bucket.pipeline() + "#" + bucket.shard());
            if (shardBuckets != null) {
                shardBuckets.remove(bucket.id());
            }
        }
    }

    /** Every due bucket not yet removed (for invariant checks). */
    public synchronized List<DueBucket> dueBuckets() {
        return buckets.values().stream().flatMap(b -> b.values().stream()).map(StoredBucket::bucket).toList();
    }

    /** Due buckets written so far (for tests). */
    public synchronized long dueBucketWrites() {
        return bucketWrites;
    }

    @Override
    public int dueShards() {
        return dueShards;
    }

    @Override
    public synchronized int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        Slots slots = slots(pipeline);
        int granted = (int) Math.max(0, Math.min(wanted, maxOpenWindows - slots.held));
        if (granted > 0) {
            slots.held += granted;
            slots.byEpoch.merge(epoch, (long) granted, Long::sum);
        }
        return granted;
    }

    @Override
    public synchronized void releaseSlots(String pipeline, long epoch, int count) {
        Slots slots = slots(pipeline);
        if (slots.byEpoch.containsKey(epoch)) {
            slots.held -= count;
            slots.byEpoch.merge(epoch, (long) -count, Long::sum);
        }
    }

    @Override
    public synchronized long retireEpochs(String pipeline, long before) {
        Slots slots = slots(pipeline);
        long returned = 0;
        for (Map.Entry<Long, Long> epoch : List.copyOf(slots.byEpoch.headMap(before).entrySet())) {
            returned += epoch.getValue();
            slots.held -= epoch.getValue();
            slots.byEpoch.remove(epoch.getKey());
        }
        return returned;
    }

    @Override
    public synchronized long openWindows(String pipeline) {
        return slots(pipeline).held;
    }

    /** The slots held per admission epoch (for invariant checks). */
    public synchronized Map<Long, Long> slotsByEpoch(String pipeline) {
        return Map.copyOf(slots(pipeline).byEpoch);
    }

    private Slots slots(String pipeline) {
        return slotsByPipeline.computeIfAbsent(pipeline, p -> new Slots());
    }

    /** The open-window counter item of a pipeline: the total held and its split by admission epoch. */
    private static final class Slots {
        long held;
        final TreeMap<Long, Long> byEpoch = new TreeMap<>();
    }

    /** Every stored window (for invariant checks). */
    public synchronized List<StoredWindow> all() {
        return List.copyOf(windows.values());
    }

    /** Deletes the windows and due buckets whose TTL has passed, as DynamoDB's TTL eventually does. */
    public synchronized int expire(Instant now) {
        List<WindowRef> gone = windows.values().stream().filter(w -> !w.expiresAt().isAfter(now)).map(StoredWindow::ref).toList();
        // As in DynamoDB, a TTL deletion leaves the open-window slots alone (only an open window would hold one, and
        // the simulation reports any open window reaching its TTL as a violation).
        gone.forEach(windows::remove);
        buckets.values().forEach(b -> b.values().removeIf(stored -> !stored.expiresAt().isAfter(now)));
        return gone.size();
    }

    public synchronized long writes() {
        return writes;
    }

    private int shardOf(WindowRef ref) {
        byte[] bytes = (ref.key() + "\u0000" + ref.windowId()).getBytes(StandardCharsets.UTF_8);
        int h = 0;
        for (byte b : bytes) {
            h = 31 * h + b;
        }
        return Math.floorMod(h, dueShards);
    }

    private record StoredBucket(DueBucket bucket, Instant expiresAt) { }

    private static StoredWindow withVersion(StoredWindow w, long version) {
        return new StoredWindow(w.ref(), version, w.status(), w.dueAt(), w.expiresAt(), w.fence(), w.leaseUntil(), w.eventIds(),
                w.state(), w.layout());
    }
}
