package dev.fanin.sim;

import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A {@link WindowStore} decorator that injects crashes, throttling and interleavings around every call. */
public final class FaultyWindowStore implements WindowStore {

    private final WindowStore inner;
    private final Faults faults;

    public FaultyWindowStore(WindowStore inner, Faults faults) {
        this.inner = inner;
        this.faults = faults;
    }

    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        faults.beforeCall("load", List.of(ref), true);
        Optional<StoredWindow> r = inner.load(ref);
        faults.afterCall("load", List.of(ref));
        return r;
    }

    @Override
    public LiveSessions loadLive(String pipeline, String key) {
        // Every session of the key is concerned: counted as pipeline-wide, as a whole-key read was before.
        faults.beforeCall("loadLive", List.of(), true);
        LiveSessions r = inner.loadLive(pipeline, key);
        faults.afterCall("loadLive", List.of());
        return r;
    }

    @Override
    public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        Set<WindowRef> refs = new LinkedHashSet<>();
        previous.sessions().forEach(w -> refs.add(w.ref()));
        next.sessions().forEach(w -> refs.add(w.ref()));
        faults.beforeCall("replaceLive", refs, true);
        WriteOutcome r = inner.replaceLive(previous, next);
        faults.afterCall("replaceLive", refs);
        return r;
    }

    @Override
    public List<StoredWindow> closedSessions(String pipeline, String key, long fromMillis, long toMillis) {
        faults.beforeCall("closedSessions", List.of(), true);
        List<StoredWindow> r = inner.closedSessions(pipeline, key, fromMillis, toMillis);
        faults.afterCall("closedSessions", List.of());
        return r;
    }

    @Override
    public WriteOutcome create(StoredWindow window) {
        faults.beforeCall("create", List.of(window.ref()), true);
        WriteOutcome r = inner.create(window);
        faults.afterCall("create", List.of(window.ref()));
        return r;
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        faults.beforeCall("replace", List.of(next.ref()), true);
        WriteOutcome r = inner.replace(previous, next);
        faults.afterCall("replace", List.of(next.ref()));
        return r;
    }

    @Override
    public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        faults.beforeCall("addDue", entries, true);
        inner.addDue(pipeline, dueAt, entries, expiresAt);
        faults.afterCall("addDue", entries);
    }

    @Override
    public void removeDue(List<DueBucket> buckets) {
        faults.beforeCall("removeDue", List.of(), true);
        inner.removeDue(buckets);
        faults.afterCall("removeDue", List.of());
    }

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        faults.beforeCall("due", List.of(), true);
        DuePage r = inner.due(pipeline, shard, dueBy, limit, cursor);
        faults.afterCall("due", List.of());
        return r;
    }

    @Override
    public int dueShards() {
        return inner.dueShards();
    }

    @Override
    public int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        faults.beforeCall("reserveSlots", List.of(), true);
        int r = inner.reserveSlots(pipeline, epoch, wanted, maxOpenWindows);
        faults.afterCall("reserveSlots", List.of());
        return r;
    }

    @Override
    public void releaseSlots(String pipeline, long epoch, int count) {
        faults.beforeCall("releaseSlots", List.of(), true);
        inner.releaseSlots(pipeline, epoch, count);
        faults.afterCall("releaseSlots", List.of());
    }

    @Override
    public long retireEpochs(String pipeline, long before) {
        faults.beforeCall("retireEpochs", List.of(), true);
        long r = inner.retireEpochs(pipeline, before);
        faults.afterCall("retireEpochs", List.of());
        return r;
    }

    @Override
    public long openWindows(String pipeline) {
        faults.beforeCall("openWindows", List.of(), true);
        long r = inner.openWindows(pipeline);
        faults.afterCall("openWindows", List.of());
        return r;
    }
}
