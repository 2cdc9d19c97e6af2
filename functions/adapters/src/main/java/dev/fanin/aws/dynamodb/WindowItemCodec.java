package dev.fanin.aws.dynamodb;

import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Maps a {@link StoredWindow} to its head item and back (docs/ARCHITECTURE.md, "Data model"). {@code due} is
 * written only when the window has a due time (due buckets list it, see {@link DueBucketItems}); {@code ttl} is
 * {@code expiresAt} in epoch seconds, rounded up so that TTL never deletes a window before its expiry.
 *
 * <p>{@link #head} and {@link #slice} are public so that the benchmark's cost model (module {@code fanin-bench})
 * sizes exactly the items this adapter writes; everything else stays package-private.
 */
public final class WindowItemCodec {

    static final String PK = "pk";
    static final String SK = "sk";
    static final String VERSION = "ver";
    static final String STATUS = "st";
    static final String DUE = "due";
    static final String FENCE = "fence";
    static final String LEASE = "lease";
    static final String IDS = "ids";
    static final String STATE = "state";
    static final String TTL = "ttl";
    static final String NEWEST_SLICE = "sn";

    private WindowItemCodec() { }

    /**
     * The head item of {@code window} with {@code headIds} as its id tail, {@code version} as its version and, unless
     * the window is {@linkplain IdLayout#legacy legacy}, the layout's newest slice as {@code sn}.
     */
    public static Map<String, AttributeValue> head(StoredWindow window, long version, Set<String> headIds, IdLayout layout) {
        WindowRef ref = window.ref();
        Map<String, AttributeValue> item = new HashMap<>(headKey(ref));
        item.put(VERSION, n(version));
        item.put(STATUS, s(window.status().name()));
        if (window.dueAt() != null) {
            item.put(DUE, n(window.dueAt().toEpochMilli()));
        }
        item.put(FENCE, n(window.fence()));
        if (window.leaseUntil() != null) {
            item.put(LEASE, n(window.leaseUntil().toEpochMilli()));
        }
        if (!headIds.isEmpty()) {
            item.put(IDS, AttributeValue.fromSs(List.copyOf(headIds)));
        }
        item.put(STATE, StateCompression.encode(window.state()));
        item.put(TTL, n(ttlSeconds(window.expiresAt())));
        if (!layout.legacy()) {
            item.put(NEWEST_SLICE, n(layout.newestSlice()));
        }
        return item;
    }

    /** The key of a window's head item. */
    static Map<String, AttributeValue> headKey(WindowRef ref) {
        return Map.of(PK, s(WindowKeys.windowPk(ref.pipeline(), ref.key())), SK, s(WindowKeys.headSk(ref.windowId())));
    }

    /** A sealed slice of ids, expiring with its window. */
    public static Map<String, AttributeValue> slice(WindowRef ref, long slice, Set<String> ids, Instant expiresAt) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(PK, s(WindowKeys.windowPk(ref.pipeline(), ref.key())));
        item.put(SK, s(WindowKeys.sliceSk(ref.windowId(), slice)));
        item.put(IDS, AttributeValue.fromSs(List.copyOf(ids)));
        item.put(TTL, n(ttlSeconds(expiresAt)));
        return item;
    }

    /** The {@code ttl} attribute of an item expiring at {@code expiresAt}: epoch seconds, rounded up. */
    public static long ttlSeconds(Instant expiresAt) {
        long seconds = expiresAt.getEpochSecond();
        return expiresAt.getNano() == 0 ? seconds : seconds + 1;
    }

    /**
     * Reads one window from its head and every one of its slice items (in any order): ids are the union of the head's
     * tail and every slice. For windows stored before bounded loads, and for tools.
     */
    static StoredWindow window(String pipeline, Map<String, AttributeValue> head, List<Map<String, AttributeValue>> slices) {
        IdLayout all = SealedSlices.legacy(slices);
        return window(pipeline, head, new IdLayout(all.sealedIds(), Math.max(all.newestSlice(), newestSlice(head)), !bounded(head)));
    }

    /** Whether a head was written with bounded loads: it has {@code sn}. */
    static boolean bounded(Map<String, AttributeValue> head) {
        return head.containsKey(NEWEST_SLICE);
    }

    /** A head's {@code sn}: every id not on it is in a slice numbered at most this (0: none). */
    static long newestSlice(Map<String, AttributeValue> head) {
        AttributeValue sn = head.get(NEWEST_SLICE);
        return sn == null ? 0 : Long.parseLong(sn.n());
    }

    /** Reads one window from its head and the layout of its sealed ids: ids are the head's tail and the sealed ones. */
    static StoredWindow window(String pipeline, Map<String, AttributeValue> head, IdLayout layout) {
        String sk = head.get(SK).s();
        WindowRef ref = new WindowRef(pipeline, WindowKeys.keyOf(pipeline, head.get(PK).s()), WindowKeys.windowIdOf(sk));
        Set<String> eventIds = new HashSet<>(layout.sealedIds());
        eventIds.addAll(ids(head));
        return new StoredWindow(
                ref,
                Long.parseLong(head.get(VERSION).n()),
                WindowStatus.valueOf(head.get(STATUS).s()),
                instantMillis(head.get(DUE)),
                Instant.ofEpochSecond(Long.parseLong(head.get(TTL).n())),
                head.containsKey(FENCE) ? Long.parseLong(head.get(FENCE).n()) : 0,
                instantMillis(head.get(LEASE)),
                eventIds,
                StateCompression.decode(head.get(STATE)),
                layout);
    }

    /**
     * Groups items of one partition (heads and slices, in any order) into windows, in the order their heads come;
     * slices without a head among the items are ignored.
     */
    static List<StoredWindow> windows(String pipeline, List<Map<String, AttributeValue>> items) {
        Map<String, Map<String, AttributeValue>> heads = new LinkedHashMap<>();
        Map<String, List<Map<String, AttributeValue>>> slices = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : items) {
            String sk = item.get(SK).s();
            String windowId = WindowKeys.windowIdOf(sk);
            if (WindowKeys.isHead(sk)) {
                heads.put(windowId, item);
            } else if (WindowKeys.sliceOf(sk) >= 0) {
                slices.computeIfAbsent(windowId, id -> new ArrayList<>()).add(item);
            }
        }
        List<StoredWindow> windows = new ArrayList<>();
        heads.forEach((windowId, head) -> windows.add(window(pipeline, head, slices.getOrDefault(windowId, List.of()))));
        return windows;
    }

    /**
     * The windows one item of a table scan holds, for tools that scan the table: a window head its window (with the ids
     * of its head only, slices being items of their own), a key's live item its live sessions, any other item none.
     */
    public static List<StoredWindow> windowsIn(Map<String, AttributeValue> item) {
        AttributeValue pk = item.get(PK);
        AttributeValue sk = item.get(SK);
        if (pk == null || sk == null || pk.s() == null || !pk.s().startsWith("W#") || pk.s().indexOf('#', 2) < 0) {
            return List.of();
        }
        String pipeline = pk.s().substring(2, pk.s().indexOf('#', 2));
        if (LiveItemCodec.LIVE_SK.equals(sk.s())) {
            return LiveItemCodec.read(pipeline, WindowKeys.keyOf(pipeline, pk.s()), item, Map.of()).sessions();
        }
        return WindowKeys.isHead(sk.s()) ? List.of(window(pipeline, item, List.of())) : List.of();
    }

    static Set<String> ids(Map<String, AttributeValue> item) {
        AttributeValue ids = item.get(IDS);
        return ids == null || !ids.hasSs() ? Set.of() : Set.copyOf(ids.ss());
    }

    private static Instant instantMillis(AttributeValue value) {
        return value == null ? null : Instant.ofEpochMilli(Long.parseLong(value.n()));
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}
