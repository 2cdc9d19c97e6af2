package dev.fanin.core.service;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** An in-memory store passed through unchanged; a test overrides the calls it fails or intercepts. */
class DelegatingWindowStore implements WindowStore {

    final InMemoryWindowStore memory;

    DelegatingWindowStore(InMemoryWindowStore memory) {
        this.memory = memory;
    }

    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        return memory.load(ref);
    }

    @Override
    public List<StoredWindow> loadKey(String pipeline, String key) {
        return memory.loadKey(pipeline, key);
    }

    @Override
    public WriteOutcome create(StoredWindow window) {
        return memory.create(window);
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        return memory.replace(previous, next);
    }

    @Override
    public WriteOutcome replaceAll(List<StoredWindow> previous, List<StoredWindow> next) {
        return memory.replaceAll(previous, next);
    }

    @Override
    public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        memory.addDue(pipeline, dueAt, new ArrayList<>(entries), expiresAt);
    }

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        return memory.due(pipeline, shard, dueBy, limit, cursor);
    }

    @Override
    public void removeDue(List<DueBucket> buckets) {
        memory.removeDue(buckets);
    }

    @Override
    public int dueShards() {
        return memory.dueShards();
    }

    @Override
    public int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        return memory.reserveSlots(pipeline, epoch, wanted, maxOpenWindows);
    }

    @Override
    public void releaseSlots(String pipeline, long epoch, int count) {
        memory.releaseSlots(pipeline, epoch, count);
    }

    @Override
    public long retireEpochs(String pipeline, long before) {
        return memory.retireEpochs(pipeline, before);
    }

    @Override
    public long openWindows(String pipeline) {
        return memory.openWindows(pipeline);
    }
}
