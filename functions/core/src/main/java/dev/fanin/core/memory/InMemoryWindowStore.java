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
 * version read (or on absence, for a create), the open-window bound checked atomically with the create, atomic
 * multi-window replace, and a due index that only holds windows with a due time. Used by the replay tool, the
 * deterministic simulation and the benchmark; the differential test checks it against DynamoDB.
 *
 * <p>Thread-safe (one lock): concurrency here is about interleaving, not throughput.
 */
public final class InMemoryWindowStore implements WindowStore {

    private final int dueShards;
    private final Map<WindowRef, StoredWindow> windows = new HashMap<>();
    private final Map<String, Long> openCounts = new HashMap<>();
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
    public synchronized WriteOutcome create(StoredWindow window, int maxOpenWindows) {
        if (window.version() != 0) {
            throw new IllegalArgumentException("create needs a new window (version 0): " + window.ref());
        }
        if (windows.containsKey(window.ref())) {
            return WriteOutcome.rejected(WriteOutcome.Rejection.CONFLICT, 0);
        }
        String pipeline = window.ref().pipeline();
        if (window.status().isOpen() && openCounts.getOrDefault(pipeline, 0L) >= maxOpenWindows) {
            return WriteOutcome.rejected(WriteOutcome.Rejection.OPEN_WINDOW_BOUND, 0);
        }
        windows.put(window.ref(), withVersion(window, 1));
        if (window.status().isOpen()) {
            openCounts.merge(pipeline, 1L, Long::sum);
        }
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
            long delta = (n.status().isOpen() ? 1 : 0) - (p.status().isOpen() ? 1 : 0);
            if (delta != 0) {
                openCounts.merge(n.ref().pipeline(), delta, Long::sum);
            }
            writes++;
        }
        return WriteOutcome.applied(next.size());
    }

    @Override
    public synchronized DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        TreeMap<String, DueEntry> sorted = new TreeMap<>();
        for (StoredWindow w : windows.values()) {
            if (w.dueAt() != null && w.ref().pipeline().equals(pipeline) && shardOf(w.ref()) == shard && !w.dueAt().isAfter(dueBy)) {
                String order = String.format("%020d|%s|%s", w.dueAt().toEpochMilli(), w.ref().key(), w.ref().windowId());
                sorted.put(order, new DueEntry(w.ref(), w.dueAt()));
            }
        }
        Map<String, DueEntry> page = cursor == null ? sorted : sorted.tailMap(cursor, false);
        List<DueEntry> entries = new ArrayList<>();
        String last = null;
        for (Map.Entry<String, DueEntry> e : page.entrySet()) {
            if (entries.size() >= limit) {
                return new DuePage(entries, last);
            }
            entries.add(e.getValue());
            last = e.getKey();
        }
        return new DuePage(entries, null);
    }

    @Override
    public int dueShards() {
        return dueShards;
    }

    @Override
    public synchronized long openWindows(String pipeline) {
        return openCounts.getOrDefault(pipeline, 0L);
    }

    /** Every stored window (for invariant checks). */
    public synchronized List<StoredWindow> all() {
        return List.copyOf(windows.values());
    }

    /** Deletes the windows whose TTL has passed, as DynamoDB's TTL eventually does. */
    public synchronized int expire(Instant now) {
        List<WindowRef> gone = windows.values().stream().filter(w -> !w.expiresAt().isAfter(now)).map(StoredWindow::ref).toList();
        for (WindowRef ref : gone) {
            StoredWindow w = windows.remove(ref);
            if (w.status().isOpen()) {
                openCounts.merge(ref.pipeline(), -1L, Long::sum);
            }
        }
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

    private static StoredWindow withVersion(StoredWindow w, long version) {
        return new StoredWindow(w.ref(), version, w.status(), w.dueAt(), w.expiresAt(), w.fence(), w.leaseUntil(), w.eventIds(),
                w.state(), w.layout());
    }
}
