package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.DUE;
import static dev.fanin.aws.dynamodb.WindowItemCodec.FENCE;
import static dev.fanin.aws.dynamodb.WindowItemCodec.LEASE;
import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.STATE;
import static dev.fanin.aws.dynamodb.WindowItemCodec.STATUS;
import static dev.fanin.aws.dynamodb.WindowItemCodec.TTL;
import static dev.fanin.aws.dynamodb.WindowItemCodec.VERSION;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;
import static dev.fanin.aws.dynamodb.WindowItemCodec.ttlSeconds;

import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.SessionView;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Maps a key's {@link LiveSessions} to its live item and back (docs/ARCHITECTURE.md, "Data model"): {@code pk =
 * W#<pipeline>#<key>}, {@code sk = S~} (after every session's own items, so a descending query of the partition meets
 * it first), {@code ver}, {@code ttl}, {@code ses} (one map per live session: {@code id}, {@code st}, {@code due},
 * {@code fence}, {@code lease}, {@code state}, {@code ttl}), {@code last} (the latest committed session: {@code id},
 * {@code s}, {@code e}, {@code cu}), and per session a top-level string set {@code i.<id>} of its recent event-id
 * digests (top-level so that a spill can {@code DELETE} from it) and, in {@code sl}, the ids of the sessions that have
 * sealed slices ({@code S<id>#S#<n>}, as a committed session's), and {@code tl} (the too-late verdicts no session
 * held: marked digest to when it may be forgotten, epoch seconds).
 *
 * <p>Public so that the benchmark's cost model sizes exactly the items the adapter writes.
 */
public final class LiveItemCodec {

    public static final String LIVE_SK = "S~";
    static final String SESSIONS = "ses";
    static final String LAST_CLOSED = "last";
    static final String SLICED = "sl";
    static final String TOO_LATE = "tl";
    static final String TAIL_PREFIX = "i.";
    static final String NEWEST_PREFIX = "n.";
    private static final String ID = "id";

    private LiveItemCodec() { }

    /**
     * The live item of {@code live} at {@code version}, each session's tail being its ids minus those sealed in slices.
     *
     * @param sliced ids of the sessions that have sealed slices
     */
    public static Map<String, AttributeValue> item(LiveSessions live, long version, Map<String, Set<String>> tails, Set<String> sliced) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(PK, s(WindowKeys.windowPk(live.pipeline(), live.key())));
        item.put(SK, s(LIVE_SK));
        item.put(VERSION, n(version));
        item.put(TTL, n(ttlSeconds(live.expiresAt())));
        List<AttributeValue> sessions = new ArrayList<>();
        for (StoredWindow w : live.sessions()) {
            sessions.add(AttributeValue.fromM(session(w)));
            Set<String> tail = tails.getOrDefault(w.ref().windowId(), Set.of());
            if (!tail.isEmpty()) {
                item.put(tailAttribute(w.ref().windowId()), AttributeValue.fromSs(List.copyOf(tail)));
            }
            IdLayout layout = IdLayout.of(w.layout());
            if (!layout.legacy() && layout.newestSlice() > 0) {
                item.put(newestAttribute(w.ref().windowId()), n(layout.newestSlice()));
            }
        }
        item.put(SESSIONS, AttributeValue.fromL(sessions));
        if (live.lastClosed() != null) {
            item.put(LAST_CLOSED, AttributeValue.fromM(lastClosed(live.lastClosed())));
        }
        if (!sliced.isEmpty()) {
            item.put(SLICED, AttributeValue.fromSs(List.copyOf(new TreeSet<>(sliced))));
        }
        if (!live.tooLate().isEmpty()) {
            Map<String, AttributeValue> tooLate = new HashMap<>();
            live.tooLate().forEach((marked, forgetAt) -> tooLate.put(marked, n(ttlSeconds(forgetAt))));
            item.put(TOO_LATE, AttributeValue.fromM(tooLate));
        }
        return item;
    }

    /** The attribute holding a session's recent event-id digests. */
    static String tailAttribute(String windowId) {
        return TAIL_PREFIX + windowId;
    }

    /**
     * The attribute holding a session's newest slice number, as a head's {@code sn}; a session in {@code sl} without
     * it was sliced before bounded loads and has all of its slices read.
     */
    static String newestAttribute(String windowId) {
        return NEWEST_PREFIX + windowId;
    }

    /** A sliced session's newest slice number, or -1 when it was sliced before bounded loads. */
    static long newestSlice(Map<String, AttributeValue> item, String windowId) {
        AttributeValue n = item.get(newestAttribute(windowId));
        return n == null ? -1 : Long.parseLong(n.n());
    }

    /** A session's TTL in epoch seconds, from its entry in the live item. */
    static Map<String, Long> sessionTtls(Map<String, AttributeValue> item) {
        Map<String, Long> ttls = new HashMap<>();
        for (AttributeValue entry : item.get(SESSIONS).l()) {
            ttls.put(entry.m().get(ID).s(), Long.parseLong(entry.m().get(TTL).n()));
        }
        return ttls;
    }

    private static Map<String, AttributeValue> session(StoredWindow w) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put(ID, s(w.ref().windowId()));
        m.put(STATUS, s(w.status().name()));
        if (w.dueAt() != null) {
            m.put(DUE, n(w.dueAt().toEpochMilli()));
        }
        m.put(FENCE, n(w.fence()));
        if (w.leaseUntil() != null) {
            m.put(LEASE, n(w.leaseUntil().toEpochMilli()));
        }
        m.put(STATE, StateCompression.encode(w.state()));
        m.put(TTL, n(ttlSeconds(w.expiresAt())));
        return m;
    }

    private static Map<String, AttributeValue> lastClosed(SessionView v) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put(ID, s(v.windowId()));
        m.put("s", n(v.bounds().startMillis()));
        m.put("e", n(v.bounds().endMillis()));
        if (v.cutUntil() != Long.MIN_VALUE) {
            m.put("cu", n(v.cutUntil()));
        }
        return m;
    }

    /** Each session's ids not sealed in a slice: what its tail attribute holds. */
    public static Map<String, Set<String>> tails(LiveSessions live) {
        Map<String, Set<String>> tails = new HashMap<>();
        for (StoredWindow w : live.sessions()) {
            Set<String> tail = new HashSet<>(w.eventIds());
            tail.removeAll(IdLayout.of(w.layout()).sealedIds());
            tails.put(w.ref().windowId(), tail);
        }
        return tails;
    }

    /** The sessions with sealed slices, which a load must read. */
    public static Set<String> sliced(LiveSessions live) {
        Set<String> sliced = new HashSet<>();
        for (StoredWindow w : live.sessions()) {
            if (!IdLayout.of(w.layout()).sealedIds().isEmpty()) {
                sliced.add(w.ref().windowId());
            }
        }
        return sliced;
    }

    /** The ids of the sessions of a live item that have sealed slices. */
    static Set<String> sliced(Map<String, AttributeValue> item) {
        AttributeValue sl = item.get(SLICED);
        return sl == null || !sl.hasSs() ? Set.of() : Set.copyOf(sl.ss());
    }

    /**
     * Reads a live item (absent: {@link LiveSessions#none}), with the layouts of its sliced sessions by id: each
     * session's ids are its tail and its layout's sealed ones.
     */
    static LiveSessions read(String pipeline, String key, Map<String, AttributeValue> item, Map<String, IdLayout> layouts) {
        if (item == null || item.isEmpty()) {
            return LiveSessions.none(pipeline, key);
        }
        long version = Long.parseLong(item.get(VERSION).n());
        List<StoredWindow> sessions = new ArrayList<>();
        for (AttributeValue entry : item.get(SESSIONS).l()) {
            Map<String, AttributeValue> m = entry.m();
            String id = m.get(ID).s();
            AttributeValue tail = item.get(tailAttribute(id));
            sessions.add(window(new WindowRef(pipeline, key, id), version, m, tail == null ? Set.of() : Set.copyOf(tail.ss()),
                    layouts.getOrDefault(id, IdLayout.EMPTY)));
        }
        return new LiveSessions(pipeline, key, version, sessions, readLastClosed(item.get(LAST_CLOSED)), readTooLate(item.get(TOO_LATE)),
                Instant.ofEpochSecond(Long.parseLong(item.get(TTL).n())));
    }

    private static StoredWindow window(WindowRef ref, long version, Map<String, AttributeValue> m, Set<String> tail, IdLayout layout) {
        Set<String> ids = new HashSet<>(layout.sealedIds());
        ids.addAll(tail);
        return new StoredWindow(ref, version, WindowStatus.valueOf(m.get(STATUS).s()), millis(m.get(DUE)),
                Instant.ofEpochSecond(Long.parseLong(m.get(TTL).n())), Long.parseLong(m.get(FENCE).n()), millis(m.get(LEASE)), ids,
                StateCompression.decode(m.get(STATE)), layout);
    }

    private static Map<String, Instant> readTooLate(AttributeValue value) {
        Map<String, Instant> tooLate = new HashMap<>();
        if (value != null && value.hasM()) {
            value.m().forEach((marked, forgetAt) -> tooLate.put(marked, Instant.ofEpochSecond(Long.parseLong(forgetAt.n()))));
        }
        return tooLate;
    }

    private static SessionView readLastClosed(AttributeValue value) {
        if (value == null) {
            return null;
        }
        Map<String, AttributeValue> m = value.m();
        long cutUntil = m.containsKey("cu") ? Long.parseLong(m.get("cu").n()) : Long.MIN_VALUE;
        return new SessionView(m.get(ID).s(), new Interval(Long.parseLong(m.get("s").n()), Long.parseLong(m.get("e").n())),
                WindowStatus.CLOSED, cutUntil);
    }

    private static Instant millis(AttributeValue value) {
        return value == null ? null : Instant.ofEpochMilli(Long.parseLong(value.n()));
    }
}
