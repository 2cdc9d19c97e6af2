package dev.fanin.sim;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@link InMemoryWindowStore} per pipeline behind one {@link WindowStore}. Every operation of the port concerns
 * one pipeline (a multi-window replace is within one key), and the open-window bound is per pipeline, so this is the
 * same store; it only keeps {@code due}, which scans its store, from scanning the other pipelines' buckets in long
 * runs.
 */
public final class PipelineStores implements WindowStore {

    private final Map<String, InMemoryWindowStore> stores = new LinkedHashMap<>();
    private final int dueShards;

    public PipelineStores(List<String> pipelines, int dueShards) {
        this.dueShards = dueShards;
        for (String p : pipelines) {
            stores.put(p, new InMemoryWindowStore(dueShards));
        }
    }

    private InMemoryWindowStore of(String pipeline) {
        InMemoryWindowStore s = stores.get(pipeline);
        if (s == null) {
            throw new IllegalArgumentException("no store for pipeline " + pipeline);
        }
        return s;
    }

    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        return of(ref.pipeline()).load(ref);
    }

    @Override
    public LiveSessions loadLive(String pipeline, String key) {
        return of(pipeline).loadLive(pipeline, key);
    }

    @Override
    public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        return of(next.pipeline()).replaceLive(previous, next);
    }

    @Override
    public List<StoredWindow> closedSessions(String pipeline, String key, long fromMillis, long toMillis) {
        return of(pipeline).closedSessions(pipeline, key, fromMillis, toMillis);
    }

    @Override
    public WriteOutcome create(StoredWindow window) {
        return of(window.ref().pipeline()).create(window);
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        return of(next.ref().pipeline()).replace(previous, next);
    }

    /** Every due bucket of every pipeline (for invariant checks). */
    public List<DueBucket> dueBuckets() {
        return stores.values().stream().flatMap(s -> s.dueBuckets().stream()).toList();
    }

    @Override
    public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        of(pipeline).addDue(pipeline, dueAt, entries, expiresAt);
    }

    @Override
    public void removeDue(List<DueBucket> buckets) {
        for (DueBucket bucket : buckets) {
            of(bucket.pipeline()).removeDue(List.of(bucket));
        }
    }

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        return of(pipeline).due(pipeline, shard, dueBy, limit, cursor);
    }

    @Override
    public int dueShards() {
        return dueShards;
    }

    @Override
    public int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        return of(pipeline).reserveSlots(pipeline, epoch, wanted, maxOpenWindows);
    }

    @Override
    public void releaseSlots(String pipeline, long epoch, int count) {
        of(pipeline).releaseSlots(pipeline, epoch, count);
    }

    @Override
    public long retireEpochs(String pipeline, long before) {
        return of(pipeline).retireEpochs(pipeline, before);
    }

    @Override
    public long openWindows(String pipeline) {
        return of(pipeline).openWindows(pipeline);
    }

    /** Whether {@code ref} is a live session (which its key's whole-key listings cover too). */
    public boolean isLive(WindowRef ref) {
        return of(ref.pipeline()).isLive(ref);
    }

    /** Every key's live item (for invariant checks). */
    public List<LiveSessions> liveItems() {
        List<LiveSessions> all = new ArrayList<>();
        stores.values().forEach(s -> all.addAll(s.liveItems()));
        return all;
    }

    public List<StoredWindow> all() {
        List<StoredWindow> all = new ArrayList<>();
        stores.values().forEach(s -> all.addAll(s.all()));
        return all;
    }

    public int expire(Instant now) {
        return stores.values().stream().mapToInt(s -> s.expire(now)).sum();
    }
}
