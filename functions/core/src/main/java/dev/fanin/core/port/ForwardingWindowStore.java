package dev.fanin.core.port;

import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A store that passes every call to another unchanged: decorators (observers, fault injectors, test doubles that
 * fail one call) extend it and override only the calls they watch.
 */
public class ForwardingWindowStore implements WindowStore {

    private final WindowStore delegate;

    public ForwardingWindowStore(WindowStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        return delegate.load(ref);
    }

    @Override
    public LiveSessions loadLive(String pipeline, String key) {
        return delegate.loadLive(pipeline, key);
    }

    /** The delegate's reads together: a decorator that watches reads up front overrides this too. */
    @Override
    public Map<WindowRef, Optional<StoredWindow>> loadAll(List<WindowRef> refs) {
        return delegate.loadAll(refs);
    }

    /** The delegate's reads together: a decorator that watches reads up front overrides this too. */
    @Override
    public Map<String, LiveSessions> loadLiveAll(String pipeline, List<String> keys) {
        return delegate.loadLiveAll(pipeline, keys);
    }

    @Override
    public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        return delegate.replaceLive(previous, next);
    }

    @Override
    public List<StoredWindow> closedSessions(String pipeline, String key, long fromMillis, long toMillis) {
        return delegate.closedSessions(pipeline, key, fromMillis, toMillis);
    }

    @Override
    public WriteOutcome create(StoredWindow window) {
        return delegate.create(window);
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        return delegate.replace(previous, next);
    }

    @Override
    public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        delegate.addDue(pipeline, dueAt, entries, expiresAt);
    }

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        return delegate.due(pipeline, shard, dueBy, limit, cursor);
    }

    @Override
    public void removeDue(List<DueBucket> buckets) {
        delegate.removeDue(buckets);
    }

    @Override
    public int dueShards() {
        return delegate.dueShards();
    }

    @Override
    public int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        return delegate.reserveSlots(pipeline, epoch, wanted, maxOpenWindows);
    }

    @Override
    public void releaseSlots(String pipeline, long epoch, int count) {
        delegate.releaseSlots(pipeline, epoch, count);
    }

    @Override
    public long retireEpochs(String pipeline, long before) {
        return delegate.retireEpochs(pipeline, before);
    }

    @Override
    public long openWindows(String pipeline) {
        return delegate.openWindows(pipeline);
    }
}
