package dev.fanin.core.memory;

import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@link WindowStore} in memory with the semantics the DynamoDB adapter provides: every write conditional on the
 * version read (or on absence, for a create), a key's live sessions replaced as one versioned unit, committed sessions
 * found by their start as the adapter's descending query finds them, open-window slots counted per admission epoch
 * with the bound checked atomically with each reservation, and due buckets kept apart from the windows (as DynamoDB
 * keeps them in items of their own). Used by the replay tool, the deterministic simulation and the benchmark; the
 * differential test checks it against DynamoDB.
 *
 * <p>Thread-safe (one lock): concurrency here is about interleaving, not throughput.
 */
public final class InMemoryWindowStore implements WindowStore {

    private final int dueShards;
    private final Map<WindowRef, StoredWindow> windows = new HashMap<>();
    /** Live sessions by pipeline and key (the key of {@link WindowRef#wholeKey}). */
    private final Map<WindowRef, LiveSessions> live = new HashMap<>();
    /** Committed sessions' ids by pipeline and key, in id order (as the adapter's sort keys order them). */
    private final Map<WindowRef, TreeMap<String, StoredWindow>> sessionsByKey = new HashMap<>();
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
    public synchronized LiveSessions loadLive(String pipeline, String key) {
        LiveSessions stored = live.get(WindowRef.wholeKey(pipeline, key));
        return stored == null ? LiveSessions.none(pipeline, key) : stored;
    }

    @Override
    public synchronized WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        WindowRef key = WindowRef.wholeKey(previous.pipeline(), previous.key());
        if (!key.equals(WindowRef.wholeKey(next.pipeline(), next.key()))) {
            throw new IllegalArgumentException("live sessions of " + previous.key() + " replaced by those of " + next.key());
        }
        LiveSessions current = live.get(key);
        if ((current == null ? 0 : current.version()) != previous.version()) {
            return WriteOutcome.rejected(WriteOutcome.Rejection.CONFLICT, 0);
        }
        long version = previous.version() + 1;
        List<StoredWindow> sessions = next.sessions().stream().map(w -> withVersion(w, version)).toList();
        live.put(key, next.with(version, sessions));
        writes++;
        return WriteOutcome.applied(1);
    }

    @Override
    public synchronized List<StoredWindow> closedSessions(String pipeline, String key, long fromMillis, long toMillis) {
        TreeMap<String, StoredWindow> heads = sessionsByKey.getOrDefault(WindowRef.wholeKey(pipeline, key), new TreeMap<>());
        List<StoredWindow> found = new ArrayList<>();
        Map.Entry<String, StoredWindow> after = heads.ceilingEntry(WindowRef.sessionId(toMillis));
        if (after != null) {
            found.add(after.getValue());
        }
        for (StoredWindow head : heads.headMap(WindowRef.sessionId(toMillis), false).descendingMap().values()) {
            found.add(head);
            if (sessionStart(head) <= fromMillis) {
                break;
            }
        }
        return found;
    }

    /** The start of a session from its id ({@link WindowRef#sessionId}), as the adapter reads it from the sort key. */
    private static long sessionStart(StoredWindow w) {
        return Long.parseLong(w.ref().windowId().substring(1));
    }

    @Override
    public synchronized WriteOutcome create(StoredWindow window) {
        if (windows.containsKey(window.ref())) {
            return WriteOutcome.rejected(WriteOutcome.Rejection.CONFLICT, 0);
        }
        put(withVersion(window, window.version() + 1));
        writes++;
        return WriteOutcome.applied(1);
    }

    private void put(StoredWindow w) {
        windows.put(w.ref(), w);
        if (w.ref().windowId().startsWith("S")) {
            sessionsByKey.computeIfAbsent(WindowRef.wholeKey(w.ref().pipeline(), w.ref().key()), k -> new TreeMap<>()).put(w.ref().windowId(), w);
        }
    }

    @Override
    public synchronized WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        if (!previous.ref().equals(next.ref())) {
            throw new IllegalArgumentException("previous " + previous.ref() + " pairs with next " + next.ref());
        }
        StoredWindow current = windows.get(previous.ref());
        if (current == null || current.version() != previous.version()) {
            return WriteOutcome.rejected(WriteOutcome.Rejection.CONFLICT, 0);
        }
        put(withVersion(next, previous.version() + 1));
        writes++;
        return WriteOutcome.applied(1);
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

    /**
     * Every stored window (for invariant checks): time windows, committed sessions, and live sessions, a live copy
     * standing for a session whose committer has already written its committed copy.
     */
    public synchronized List<StoredWindow> all() {
        Map<WindowRef, StoredWindow> all = new HashMap<>(windows);
        live.values().forEach(l -> l.sessions().forEach(w -> all.put(w.ref(), w)));
        return List.copyOf(all.values());
    }

    /** Whether {@code ref} is a live session (listed by its key's whole-key entries too). */
    public synchronized boolean isLive(WindowRef ref) {
        LiveSessions sessions = live.get(WindowRef.wholeKey(ref.pipeline(), ref.key()));
        return sessions != null && sessions.session(ref.windowId()).isPresent();
    }

    /** Every key's live sessions item (for invariant checks). */
    public synchronized List<LiveSessions> liveItems() {
        return List.copyOf(live.values());
    }

    /** Deletes the windows, live-session items and due buckets whose TTL has passed, as DynamoDB's TTL eventually does. */
    public synchronized int expire(Instant now) {
        List<WindowRef> gone = windows.values().stream().filter(w -> !w.expiresAt().isAfter(now)).map(StoredWindow::ref).toList();
        // As in DynamoDB, a TTL deletion leaves the open-window slots alone (only an open window would hold one, and
        // the simulation reports any open window reaching its TTL as a violation).
        for (WindowRef ref : gone) {
            windows.remove(ref);
            TreeMap<String, StoredWindow> sessions = sessionsByKey.get(WindowRef.wholeKey(ref.pipeline(), ref.key()));
            if (sessions != null) {
                sessions.remove(ref.windowId());
            }
        }
        live.values().removeIf(l -> !l.expiresAt().isAfter(now));
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
