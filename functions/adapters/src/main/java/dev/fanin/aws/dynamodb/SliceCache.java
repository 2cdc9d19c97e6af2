package dev.fanin.aws.dynamodb;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The sealed id slices one function container has read, by window, least recently used first out, bounded by an
 * estimate of the heap they take. A slice item is written once under {@code attribute_not_exists} and never changed
 * (its number is the version whose write spilled it), so what a container has read of a window stays true; a load
 * then reads the head and only the slices sealed since ({@link SealedSlices}). Correctness never depends on the cache:
 * a window it does not hold (never seen, evicted, or too large for the bound) is read whole.
 *
 * <p>Thread-safe: the sweeper works on several shards at once with one store.
 */
public final class SliceCache {

    /** Heap one cached digest takes, estimated: a 16-character string and its set entry. */
    static final long BYTES_PER_ID = 96;
    /** The bound a function container uses: about 1.4 million digests. */
    public static final long DEFAULT_BYTES = 128L * 1024 * 1024;

    /**
     * What a container knows of one window's slices: the ids of every slice that can hold an id missing from the head,
     * up to number {@code through}, as read when the head was at {@code version} with TTL {@code ttl}.
     */
    public record Known(long version, long ttl, long through, Set<String> ids) {

        public Known {
            ids = Set.copyOf(ids);
        }

        long bytes() {
            return ids.size() * BYTES_PER_ID;
        }
    }

    private final long maxBytes;
    private final LinkedHashMap<String, Known> byWindow = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    /** @param maxBytes the heap the cached digests may take, by {@link #BYTES_PER_ID} each; 0 caches nothing */
    public SliceCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** A container's cache of {@link #DEFAULT_BYTES}. */
    public static SliceCache ofDefaultSize() {
        return new SliceCache(DEFAULT_BYTES);
    }

    /**
     * What is known of {@code window}, if it can stand beside the head just read: a head with another TTL, or an
     * older version than the one known, is another incarnation of the window (its items expired and it was created
     * again), and what was known of the old one is dropped.
     *
     * @return null when nothing usable is known
     */
    public synchronized Known known(String window, long headVersion, long headTtl) {
        Known known = byWindow.get(window);
        if (known != null && (known.ttl() != headTtl || known.version() > headVersion)) {
            forget(window);
            return null;
        }
        return known;
    }

    /** Keeps {@code known} for {@code window}, evicting the least recently used windows past the bound. */
    public synchronized void remember(String window, Known known) {
        forget(window);
        if (known.bytes() > maxBytes || known.ids().isEmpty()) {
            return;
        }
        byWindow.put(window, known);
        bytes += known.bytes();
        Iterator<Map.Entry<String, Known>> eldest = byWindow.entrySet().iterator();
        while (bytes > maxBytes && eldest.hasNext()) {
            bytes -= eldest.next().getValue().bytes();
            eldest.remove();
        }
    }

    private void forget(String window) {
        Known old = byWindow.remove(window);
        if (old != null) {
            bytes -= old.bytes();
        }
    }

    /** The key of a window's entry: its partition key and window id. */
    public static String windowKey(String pk, String windowId) {
        return pk + '\u0000' + windowId;
    }
}
