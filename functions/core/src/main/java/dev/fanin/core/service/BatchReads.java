package dev.fanin.core.service;

import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one pipeline's share of an ingest batch read up front: every window or session key it writes, in one request
 * per 100 items instead of one each, so the invocation waits on one read instead of one per key. Each item serves the
 * first attempt at its window or key only; an attempt after a lost write reads afresh, as one without this would. A
 * read up front is older when it is used than a read just before the write, which the write's version condition
 * covers like any other change made meanwhile.
 */
final class BatchReads {

    private static final Logger LOG = LoggerFactory.getLogger(BatchReads.class);

    private final Map<String, LiveSessions> live;
    private final Map<WindowRef, Optional<StoredWindow>> heads;

    private BatchReads(Map<String, LiveSessions> live, Map<WindowRef, Optional<StoredWindow>> heads) {
        this.live = new HashMap<>(live);
        this.heads = new HashMap<>(heads);
    }

    static BatchReads none() {
        return new BatchReads(Map.of(), Map.of());
    }

    /**
     * The live sessions of {@code keys}; nothing for a single key (a read of one saves no round trip, and a single-item
     * read waits less than a batch read) or when the read fails in any way: each key is then read on its own, where a
     * failure fails only that key's messages, as the read of one key always did.
     */
    static BatchReads live(FaninEngine engine, String pipeline, List<String> keys) {
        return together(engine, pipeline, keys.size(), () -> new BatchReads(engine.ports().store().loadLiveAll(pipeline, keys), Map.of()));
    }

    /** The heads of {@code refs}, all of one pipeline; nothing for a single window or when the read fails, as for {@link #live}. */
    static BatchReads heads(FaninEngine engine, List<WindowRef> refs) {
        return refs.isEmpty() ? none()
                : together(engine, refs.get(0).pipeline(), refs.size(), () -> new BatchReads(Map.of(), engine.ports().store().loadAll(refs)));
    }

    private static BatchReads together(FaninEngine engine, String pipeline, int items, Supplier<BatchReads> read) {
        if (items < 2) {
            return none();
        }
        try {
            return read.get();
        } catch (RuntimeException e) {
            return fallBack(engine, pipeline, items, e);
        }
    }

    /** Counted, since a read that always fails (a role without the batch read) costs each batch a call and its time. */
    private static BatchReads fallBack(FaninEngine engine, String pipeline, int items, RuntimeException failure) {
        engine.ports().metrics().count(MetricNames.BATCH_READ_FALLBACKS, pipeline);
        LOG.warn("the batch's {} windows or keys of pipeline {} are read one by one: reading them together failed: {}", items, pipeline,
                failure.toString());
        return none();
    }

    /** The key's live sessions as read up front, once; else {@code load}'s. */
    LiveSessions liveOr(String key, Supplier<LiveSessions> load) {
        LiveSessions read = live.remove(key);
        return read != null ? read : load.get();
    }

    /** The window as read up front, once; else {@code load}'s. */
    Optional<StoredWindow> headOr(WindowRef ref, Supplier<Optional<StoredWindow>> load) {
        Optional<StoredWindow> read = heads.remove(ref);
        return read != null ? read : load.get();
    }
}
