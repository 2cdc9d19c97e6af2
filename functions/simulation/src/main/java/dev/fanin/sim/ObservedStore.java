package dev.fanin.sim;

import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sits directly on the real store and reports every applied write to the {@link CommitLedger}: what the store really
 * did, whatever happens to the worker afterwards.
 */
public final class ObservedStore implements WindowStore {

    private final WindowStore inner;
    private final CommitLedger ledger;

    public ObservedStore(WindowStore inner, CommitLedger ledger) {
        this.inner = inner;
        this.ledger = ledger;
    }

    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        return inner.load(ref);
    }

    @Override
    public List<StoredWindow> loadKey(String pipeline, String key) {
        return inner.loadKey(pipeline, key);
    }

    @Override
    public WriteOutcome create(StoredWindow window) {
        WriteOutcome r = inner.create(window);
        if (r.applied()) {
            ledger.written(null, window);
        }
        return r;
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        WriteOutcome r = inner.replace(previous, next);
        if (r.applied()) {
            ledger.written(previous, next);
        }
        return r;
    }

    @Override
    public WriteOutcome replaceAll(List<StoredWindow> previous, List<StoredWindow> next) {
        WriteOutcome r = inner.replaceAll(new ArrayList<>(previous), new ArrayList<>(next));
        if (r.applied()) {
            for (int i = 0; i < next.size(); i++) {
                ledger.written(previous.get(i), next.get(i));
            }
        }
        return r;
    }

    @Override
    public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        inner.addDue(pipeline, dueAt, entries, expiresAt);
    }

    @Override
    public void removeDue(List<DueBucket> buckets) {
        inner.removeDue(buckets);
    }

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        return inner.due(pipeline, shard, dueBy, limit, cursor);
    }

    @Override
    public int dueShards() {
        return inner.dueShards();
    }

    @Override
    public int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        return inner.reserveSlots(pipeline, epoch, wanted, maxOpenWindows);
    }

    @Override
    public void releaseSlots(String pipeline, long epoch, int count) {
        inner.releaseSlots(pipeline, epoch, count);
    }

    @Override
    public long retireEpochs(String pipeline, long before) {
        return inner.retireEpochs(pipeline, before);
    }

    @Override
    public long openWindows(String pipeline) {
        return inner.openWindows(pipeline);
    }
}
