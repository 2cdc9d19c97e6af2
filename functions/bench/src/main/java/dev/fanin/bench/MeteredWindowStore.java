package dev.fanin.bench;

import dev.fanin.aws.RetryPolicy;
import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.dynamodb.IdLayout;
import dev.fanin.aws.dynamodb.LiveItemCodec;
import dev.fanin.aws.dynamodb.SliceCache;
import dev.fanin.aws.dynamodb.WindowItemCodec;
import dev.fanin.aws.dynamodb.WindowKeys;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A {@link WindowStore} that keeps windows in an {@link InMemoryWindowStore} and bills every call exactly as
 * {@link DynamoDbWindowStore} would make it: the same API calls (a conditional PutItem per write of a window head or
 * of a session key's live item, a session merge included, a PutItem and an UpdateItem for each spill, a GetItem of
 * the head or live item per load plus a Query of the sealed slices the container has not read, the Queries that find
 * a key's committed sessions), and request units by {@link CapacityRules} over the items the adapter's own
 * {@link WindowItemCodec} and {@link LiveItemCodec} build. Sizes of old items
 * are taken the way the adapter takes them (re-encoded from the loaded window), so {@link DynamoDbBill#tableWriteUnits()}
 * equals the sum of the adapter's size-based figures, which is what the functions report as their metric.
 *
 * <p>Due buckets are billed by {@link MeteredDueBuckets}, the open-window counter by {@link MeteredSlots}.
 *
 * <p>The store also keeps what DynamoDB would hold beyond the delegate: each window's sealed id slices and its
 * stored head size (for read units). Loaded windows carry the
 * {@link IdLayout} a DynamoDB load would rebuild from the slices, so the core passes the same layouts on as it
 * would in production. Single-threaded use (the simulation).
 */
public final class MeteredWindowStore implements WindowStore {

    static final String PUT = "PutItem";
    static final String UPDATE = "UpdateItem";
    static final String QUERY = "Query";
    static final String GET = "GetItem";
    static final String BATCH_GET = "BatchGetItem";
    /** DynamoDB's limit on what one {@code BatchGetItem} returns; the keys past it come back unprocessed. */
    static final long BATCH_GET_BYTES = 16L * 1024 * 1024;
    /** The adapter's calls per unprocessed key ({@code RetryPolicy.defaults()}). */
    static final int BATCH_GET_ATTEMPTS = RetryPolicy.defaults().maxAttempts();
    static final String BATCH_WRITE = "BatchWriteItem";
    /** DynamoDB ends a Query page at 1 MB of items read. */
    static final long QUERY_PAGE_BYTES = 1024 * 1024;

    private final InMemoryWindowStore delegate;
    private final DynamoDbWindowStore.Settings settings;
    private final DynamoDbBill bill;
    /** What each slice item seals, by window and number (a live session's slices stay its own once it is committed). */
    private final Map<WindowRef, TreeMap<Long, Set<String>>> slices = new HashMap<>();
    /** Each window's newest slice as stored: a head's {@code sn}, a live session's {@code n.<id>} (absent: 0). */
    private final Map<WindowRef, Long> newest = new HashMap<>();
    /** The slice cache of each function container, by container. */
    private final Map<Integer, SliceCache> caches = new HashMap<>();
    private final long cacheBytes;
    private int container;
    /** The size of every window-partition item DynamoDB would hold, by partition and sort key. */
    private final Map<String, TreeMap<String, Long>> items = new HashMap<>();
    private long headWrites;
    private long headBytesWritten;
    private final WritePurposes purposes = new WritePurposes();
    private final ClaimLoads claimLoads;
    private final MeteredDueBuckets dueBuckets;
    private final MeteredSlots slots;

    public MeteredWindowStore(DynamoDbWindowStore.Settings settings, DynamoDbBill bill) {
        this(settings, bill, SliceCache.DEFAULT_BYTES);
    }

    /** @param cacheBytes each container's slice cache bound, as {@link SliceCache}'s */
    public MeteredWindowStore(DynamoDbWindowStore.Settings settings, DynamoDbBill bill, long cacheBytes) {
        this.delegate = new InMemoryWindowStore(settings.dueShards());
        this.settings = settings;
        this.bill = bill;
        this.cacheBytes = cacheBytes;
        this.claimLoads = new ClaimLoads(bill);
        this.dueBuckets = new MeteredDueBuckets(delegate, bill, settings.dueShards());
        this.slots = new MeteredSlots(delegate, bill);
    }

    /** Tells a write that only records too-late verdicts by the events {@code counted} says a window holds ({@link WritePurposes}). */
    void countWith(ToLongFunction<StoredWindow> counted) {
        purposes.countWith(counted);
    }

    // ---------------------------------------------------------------- reads

    /** As the adapter: a consistent {@code GetItem} of the head, then the slices the container does not hold. */
    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        String pk = partitionOf(ref);
        billGet(pk, WindowKeys.headSk(ref.windowId()), Purpose.HEAD_LOAD);
        return delegate.load(ref).map(w -> withLayout(w, sealed(pk, ref, w.version(), w.expiresAt(), newest.getOrDefault(ref, 0L))));
    }

    /** As the adapter: a consistent {@code GetItem} of the live item, then each sliced session's slices the container does not hold. */
    @Override
    public LiveSessions loadLive(String pipeline, String key) {
        String pk = WindowKeys.windowPk(pipeline, key);
        billGet(pk, LiveItemCodec.LIVE_SK, Purpose.LIVE_LOAD);
        return laidOut(pk, delegate.loadLive(pipeline, key));
    }

    /** The live sessions with the layouts a DynamoDB load rebuilds: each sliced session's slices, as the container reads them. */
    private LiveSessions laidOut(String pk, LiveSessions live) {
        List<StoredWindow> laidOut = new ArrayList<>();
        for (StoredWindow session : live.sessions()) {
            long n = newest.getOrDefault(session.ref(), 0L);
            laidOut.add(withLayout(session, n > 0 ? sealed(pk, session.ref(), live.version(), session.expiresAt(), n) : IdLayout.EMPTY));
        }
        return live.with(live.version(), laidOut);
    }

    /** As the adapter: the heads in {@code BatchGetItem} calls ({@link #billBatchGet}), then each window's slices as {@link #load}. */
    @Override
    public Map<WindowRef, Optional<StoredWindow>> loadAll(List<WindowRef> refs) {
        return readTogether(refs, ref -> List.of(partitionOf(ref), WindowKeys.headSk(ref.windowId())), Purpose.HEAD_LOAD,
                ref -> delegate.load(ref).map(w -> withLayout(w, sealed(partitionOf(ref), ref, w.version(), w.expiresAt(),
                        newest.getOrDefault(ref, 0L)))));
    }

    /** As the adapter: the live items in {@code BatchGetItem} calls ({@link #billBatchGet}), then each one's slices as {@link #loadLive}. */
    @Override
    public Map<String, LiveSessions> loadLiveAll(String pipeline, List<String> keys) {
        return readTogether(keys, key -> List.of(WindowKeys.windowPk(pipeline, key), LiveItemCodec.LIVE_SK), Purpose.LIVE_LOAD,
                key -> laidOut(WindowKeys.windowPk(pipeline, key), delegate.loadLive(pipeline, key)));
    }

    /** Each target whose item (partition and sort key) the batch read billed, as {@code load} reads it after. */
    private <T, R> Map<T, R> readTogether(List<T> targets, Function<T, List<String>> item, Purpose purpose, Function<T, R> load) {
        Set<List<String>> read = billBatchGet(targets.stream().map(item).toList(), purpose);
        Map<T, R> loaded = new LinkedHashMap<>();
        targets.stream().filter(t -> read.contains(item.apply(t))).forEach(t -> loaded.put(t, load.apply(t)));
        return loaded;
    }

    /**
     * Consistent {@code BatchGetItem} calls of {@code items} (partition and sort key each), as {@code BatchGets} makes
     * them with the adapter's retry policy: every key in calls of up to 100, each item billed as its own
     * {@code GetItem} (its size rounded up to 4 KB, at least one unit); a call returns items until 16 MB, and the keys
     * past that are asked again together in the next attempt, up to {@link #BATCH_GET_ATTEMPTS}; keys still left then
     * are not read here (the core reads each alone).
     *
     * @return the keys read
     */
    private Set<List<String>> billBatchGet(List<List<String>> items, Purpose purpose) {
        bill.purpose(purpose);
        Set<List<String>> read = new HashSet<>();
        List<List<String>> pending = List.copyOf(new LinkedHashSet<>(items));
        for (int attempt = 1; attempt <= BATCH_GET_ATTEMPTS && !pending.isEmpty(); attempt++) {
            List<List<String>> left = new ArrayList<>();
            for (int from = 0; from < pending.size(); from += DynamoDbWindowStore.MAX_BATCH_GET) {
                List<List<String>> asked = pending.subList(from, Math.min(pending.size(), from + DynamoDbWindowStore.MAX_BATCH_GET));
                bill.call(BATCH_GET);
                long returned = 0;
                for (List<String> item : asked) {
                    long bytes = partition(item.get(0)).getOrDefault(item.get(1), 0L);
                    if (returned > 0 && returned + bytes > BATCH_GET_BYTES) {
                        left.add(item);
                        continue;
                    }
                    returned += bytes;
                    read(item.get(0), bytes);
                    claimLoads.loaded(item.get(0), item.get(1), purpose, CapacityRules.strongReadUnits(bytes));
                    read.add(item);
                }
            }
            pending = left;
        }
        return read;
    }

    /**
     * As {@code SealedSlices.read}: what the current container's cache holds of the window, plus the slices numbered
     * after it up to {@code newestSlice}, read with one consistent {@code Query} (pages of 1 MB).
     */
    private IdLayout sealed(String pk, WindowRef ref, long version, Instant expiresAt, long newestSlice) {
        SliceCache cache = caches.computeIfAbsent(container, c -> new SliceCache(cacheBytes));
        String window = SliceCache.windowKey(pk, ref.windowId());
        long ttl = WindowItemCodec.ttlSeconds(expiresAt);
        SliceCache.Known known = cache.known(window, version, ttl);
        long through = known == null ? 0 : known.through();
        if (newestSlice <= through) {
            if (known == null) {
                return IdLayout.EMPTY;
            }
            cache.remember(window, new SliceCache.Known(version, ttl, through, known.ids()));
            return new IdLayout(known.ids(), through, false);
        }
        Set<String> ids = new HashSet<>(known == null ? Set.of() : known.ids());
        List<Long> sizes = new ArrayList<>();
        for (Map.Entry<Long, Set<String>> slice : slices(ref).subMap(through + 1, newestSlice + 1).entrySet()) {
            ids.addAll(slice.getValue());
            sizes.add(partition(pk).get(WindowKeys.sliceSk(ref.windowId(), slice.getKey())));
        }
        bill.purpose(Purpose.SLICE_LOAD);
        billSizedPages(pk, sizes);
        SliceCache.Known now = new SliceCache.Known(version, ttl, newestSlice, ids);
        cache.remember(window, now);
        return new IdLayout(now.ids(), newestSlice, false);
    }

    /** Runs the next calls in function container {@code container}, with its own slice cache. */
    public void useContainer(int container) {
        this.container = container;
    }

    private TreeMap<Long, Set<String>> slices(WindowRef ref) {
        return slices.computeIfAbsent(ref, r -> new TreeMap<>());
    }

    /**
     * As the adapter ({@code DynamoDbSessions.closedHeads}, then each head as a load goes on): a consistent
     * {@code Query} of the first item from {@code S<to>} below "S:" (a session's head, or a live session's slice), then
     * the pages of a descending one below {@code S<to>} until the head of a session starting at or before
     * {@code from}, each slice met ending its page and sending the query on from its session's head; then each head's
     * slices the container does not hold ({@link #sealed}). A page ending exactly at its limit is followed by another
     * only if items remain, as the local endpoint pages; DynamoDB may return one more, empty, page there.
     */
    @Override
    public List<StoredWindow> closedSessions(String pipeline, String key, long fromMillis, long toMillis) {
        String pk = WindowKeys.windowPk(pipeline, key);
        bill.purpose(Purpose.COMMITTED_QUERY);
        List<String> heads = new ArrayList<>();
        Map.Entry<String, Long> later = partition(pk).subMap(WindowRef.sessionId(toMillis), true, "S:", true).firstEntry();
        bill.call(QUERY);
        read(pk, later == null ? 0 : later.getValue());
        if (later != null && WindowKeys.isHead(later.getKey())) {
            heads.add(WindowKeys.windowIdOf(later.getKey()));
        }
        descendingHeads(pk, WindowRef.sessionId(toMillis), fromMillis, heads);
        Map<String, StoredWindow> stored = new HashMap<>();
        delegate.closedSessions(pipeline, key, fromMillis, toMillis).forEach(w -> stored.put(w.ref().windowId(), w));
        return heads.stream().map(stored::get).map(w -> withLayout(w, sealed(pk, w.ref(), w.version(), w.expiresAt(),
                newest.getOrDefault(w.ref(), 0L)))).toList();
    }

    /** The pages of the descending query below {@code before}, as {@link #closedSessions} says, adding the heads read. */
    private void descendingHeads(String pk, String before, long fromMillis, List<String> heads) {
        List<Map.Entry<String, Long>> items = new ArrayList<>(partition(pk).headMap(before, false).descendingMap().entrySet());
        int at = 0;
        int limit = DynamoDbWindowStore.FIRST_PAGE_ITEMS;
        do {
            List<Map.Entry<String, Long>> page = items.subList(at, Math.min(items.size(), at + limit));
            bill.call(QUERY);
            read(pk, page.stream().mapToLong(Map.Entry::getValue).sum());
            for (Map.Entry<String, Long> item : page) {
                String windowId = WindowKeys.windowIdOf(item.getKey());
                if (!WindowKeys.isHead(item.getKey())) {
                    descendingHeads(pk, WindowKeys.aboveHead(windowId), fromMillis, heads);
                    return;
                }
                heads.add(windowId);
                if (WindowKeys.sessionStart(item.getKey()) <= fromMillis) {
                    return;
                }
            }
            at += page.size();
            limit = DynamoDbWindowStore.NEXT_PAGE_ITEMS;
        } while (at < items.size());
    }

    /**
     * The pages of one consistent {@code Query} reading every item of {@code sizes} (in sort-key order): DynamoDB ends
     * a page once the items it has read reach 1 MB, and a next page follows only while items remain.
     */
    private void billSizedPages(String pk, List<Long> sizes) {
        long page = 0;
        for (int i = 0; i < sizes.size(); i++) {
            page += sizes.get(i);
            if (page >= QUERY_PAGE_BYTES && i < sizes.size() - 1) {
                bill.call(QUERY);
                read(pk, page);
                page = 0;
            }
        }
        bill.call(QUERY);
        read(pk, page);
    }

    /** A strongly consistent {@code GetItem} of one item, remembered in case a claim of the item follows ({@link ClaimLoads}). */
    private void billGet(String pk, String sk, Purpose purpose) {
        bill.purpose(purpose);
        bill.call(GET);
        long bytes = partition(pk).getOrDefault(sk, 0L);
        read(pk, bytes);
        claimLoads.loaded(pk, sk, purpose, CapacityRules.strongReadUnits(bytes));
    }

    /** A strongly consistent read returning {@code bytes} from partition {@code pk}. */
    private void read(String pk, long bytes) {
        bill.read(pk, CapacityRules.strongReadUnits(bytes), bytes);
    }

    @Override
    public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        dueBuckets.add(pipeline, dueAt, entries, expiresAt);
    }

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        return dueBuckets.due(pipeline, shard, dueBy, limit, cursor);
    }

    @Override
    public void removeDue(List<DueBucket> buckets) {
        dueBuckets.remove(buckets);
    }

    @Override
    public int dueShards() {
        return delegate.dueShards();
    }

    @Override
    public long openWindows(String pipeline) {
        return slots.open(pipeline);
    }

    @Override
    public int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        return slots.reserve(pipeline, epoch, wanted, maxOpenWindows);
    }

    @Override
    public void releaseSlots(String pipeline, long epoch, int count) {
        slots.release(pipeline, epoch, count);
    }

    @Override
    public long retireEpochs(String pipeline, long before) {
        return slots.retire(pipeline, before);
    }

    // ---------------------------------------------------------------- writes

    @Override
    public WriteOutcome create(StoredWindow window) {
        IdLayout layout = layoutOf(window.layout());
        Set<String> headIds = headIds(window, layout);
        long version = window.version() + 1;
        Map<String, AttributeValue> head = WindowItemCodec.head(window, version, headIds, layout);
        double units = CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(head));
        Purpose purpose = purposes.ofCreate(window);
        bill.purpose(purpose);
        bill.call(PUT);
        bill.write(partitionOf(window.ref()), units);
        if (purpose == Purpose.CLAIM) {
            claimLoads.claimed(partitionOf(window.ref()), WindowKeys.headSk(window.ref().windowId()));
        }
        WriteOutcome outcome = delegate.create(window);
        if (!outcome.applied()) {
            return outcome;
        }
        return WriteOutcome.applied(units + written(window, version, head, headIds, layout));
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        IdLayout layout = layoutOf(previous.layout());
        Set<String> headIds = headIds(next, layout);
        long version = previous.version() + 1;
        Map<String, AttributeValue> head = WindowItemCodec.head(next, version, headIds, layout);
        double units = CapacityRules.writeUnits(previousHeadBytes(previous, layout), DynamoDbItemSize.bytes(head));
        Purpose purpose = purposes.ofReplace(previous, next);
        bill.purpose(purpose);
        bill.call(PUT);
        bill.write(partitionOf(next.ref()), units);
        if (purpose == Purpose.CLAIM) {
            claimLoads.claimed(partitionOf(next.ref()), WindowKeys.headSk(next.ref().windowId()));
        }
        WriteOutcome outcome = delegate.replace(previous, next);
        if (!outcome.applied()) {
            return outcome;
        }
        return WriteOutcome.applied(units + written(next, version, head, headIds, layout));
    }

    /**
     * As the adapter: one {@code PutItem} of the live item, conditional on its version (billed even when refused),
     * then the spill of every session holding more than the threshold: a {@code PutItem} per slice and one
     * {@code UpdateItem} of the live item.
     */
    @Override
    public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        long written = previous.version() + 1;
        Map<String, Set<String>> tails = LiveItemCodec.tails(next);
        Map<String, AttributeValue> item = LiveItemCodec.item(next, written, tails, LiveItemCodec.sliced(next));
        long previousBytes = previous.version() == 0 ? 0
                : DynamoDbItemSize.bytes(LiveItemCodec.item(previous, previous.version(), LiveItemCodec.tails(previous), LiveItemCodec.sliced(previous)));
        double units = CapacityRules.writeUnits(previousBytes, DynamoDbItemSize.bytes(item));
        Purpose purpose = purposes.ofLive(previous, next);
        bill.purpose(purpose);
        bill.call(PUT);
        bill.write(WindowKeys.windowPk(next.pipeline(), next.key()), units);
        if (purpose == Purpose.CLAIM) {
            claimLoads.claimed(WindowKeys.windowPk(next.pipeline(), next.key()), LiveItemCodec.LIVE_SK);
        }
        Set<String> spilled = new HashSet<>();
        for (StoredWindow w : next.sessions()) {
            if (tails.get(w.ref().windowId()).size() > settings.spillThreshold()) {
                spilled.add(w.ref().windowId());
            }
        }
        WriteOutcome outcome = delegate.replaceLive(previous, next);
        if (!outcome.applied()) {
            return outcome;
        }
        for (StoredWindow w : next.sessions()) {
            newest.put(w.ref(), layoutOf(w.layout()).newestSlice());
        }
        return WriteOutcome.applied(units + spillLive(next, written, item, tails, spilled));
    }

    /** The adapter's live spill: a slice {@code S<id>#S#<written>} per spilled session, then one update of the item. */
    private double spillLive(LiveSessions next, long written, Map<String, AttributeValue> item, Map<String, Set<String>> tails,
                             Set<String> spilled) {
        String pk = WindowKeys.windowPk(next.pipeline(), next.key());
        bill.purpose(Purpose.SLICE_SPILL);
        double units = 0;
        Map<String, Set<String>> after = new HashMap<>(tails);
        List<StoredWindow> afterSpill = new ArrayList<>();
        for (StoredWindow w : next.sessions()) {
            if (spilled.contains(w.ref().windowId())) {
                Set<String> tail = tails.get(w.ref().windowId());
                Map<String, AttributeValue> slice = WindowItemCodec.slice(w.ref(), written, tail, w.expiresAt());
                double sliceUnits = CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(slice));
                bill.call(PUT);
                bill.write(pk, sliceUnits);
                units += sliceUnits;
                slices(w.ref()).put(written, Set.copyOf(tail));
                partition(pk).put(WindowKeys.sliceSk(w.ref().windowId(), written), DynamoDbItemSize.bytes(slice));
                after.put(w.ref().windowId(), Set.of());
                newest.put(w.ref(), written);
                afterSpill.add(withLayout(w, new IdLayout(Set.of(), written, false)));
            } else {
                afterSpill.add(w);
            }
        }
        Map<String, AttributeValue> stored = item;
        if (!spilled.isEmpty()) {
            double updateUnits = CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(item));
            bill.call(UPDATE);
            bill.write(pk, updateUnits);
            units += updateUnits;
            Set<String> sliced = new HashSet<>(LiveItemCodec.sliced(next));
            sliced.addAll(spilled);
            stored = LiveItemCodec.item(next.with(next.version(), afterSpill), written, after, sliced);
        }
        partition(pk).put(LiveItemCodec.LIVE_SK, DynamoDbItemSize.bytes(stored));
        return units;
    }

    // ---------------------------------------------------------------- what DynamoDB would hold

    /**
     * After a successful head write: the adapter's spill (slice PutItem, head UpdateItem).
     *
     * @return the spill's write units, which the adapter adds to the write's outcome
     */
    private double written(StoredWindow window, long version, Map<String, AttributeValue> head, Set<String> headIds, IdLayout layout) {
        WindowRef ref = window.ref();
        String pk = WindowKeys.windowPk(ref.pipeline(), ref.key());
        partition(pk).put(WindowKeys.headSk(ref.windowId()), DynamoDbItemSize.bytes(head));
        headWrites++;
        headBytesWritten += DynamoDbItemSize.bytes(head);
        newest.put(ref, layout.newestSlice());
        if (headIds.size() <= settings.spillThreshold()) {
            return 0;
        }
        TreeMap<Long, Set<String>> existing = slices(ref);
        bill.purpose(Purpose.SLICE_SPILL);
        Map<String, AttributeValue> slice = WindowItemCodec.slice(ref, version, headIds, window.expiresAt());
        long bytes = DynamoDbItemSize.bytes(slice);
        double sliceUnits = CapacityRules.writeUnits(0, bytes);
        bill.call(PUT);
        bill.write(pk, sliceUnits);
        if (existing.containsKey(version)) {
            return sliceUnits; // attribute_not_exists fails (another incarnation's slice); the adapter stops the spill here
        }
        existing.put(version, Set.copyOf(headIds));
        partition(pk).put(WindowKeys.sliceSk(ref.windowId(), version), bytes);
        double headUnits = CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(head));
        bill.call(UPDATE);
        bill.write(pk, headUnits);
        newest.put(ref, version);
        partition(pk).put(WindowKeys.headSk(ref.windowId()), DynamoDbItemSize.bytes(WindowItemCodec.head(window, version, Set.of(),
                new IdLayout(Set.of(), version, layout.legacy()))));
        return sliceUnits + headUnits;
    }

    /** Mean size of the head items written (the figure that sets a head write's units). */
    public double meanHeadBytes() {
        return headWrites == 0 ? 0 : (double) headBytesWritten / headWrites;
    }

    /** Whether any window still has a due time (the simulation runs until none has). Not billed. */
    public boolean anyDue() {
        return delegate.all().stream().anyMatch(w -> w.dueAt() != null);
    }

    private static String partitionOf(WindowRef ref) {
        return WindowKeys.windowPk(ref.pipeline(), ref.key());
    }

    private TreeMap<String, Long> partition(String pk) {
        return items.computeIfAbsent(pk, p -> new TreeMap<>());
    }

    private long previousHeadBytes(StoredWindow previous, IdLayout layout) {
        return DynamoDbItemSize.bytes(WindowItemCodec.head(previous, previous.version(), headIds(previous, layout), layout));
    }

    private static Set<String> headIds(StoredWindow window, IdLayout layout) {
        Set<String> ids = new HashSet<>(window.eventIds());
        ids.removeAll(layout.sealedIds());
        return ids;
    }

    private static IdLayout layoutOf(Object layout) {
        return layout instanceof IdLayout idLayout ? idLayout : IdLayout.EMPTY;
    }

    private static StoredWindow withLayout(StoredWindow w, IdLayout layout) {
        return new StoredWindow(w.ref(), w.version(), w.status(), w.dueAt(), w.expiresAt(), w.fence(), w.leaseUntil(), w.eventIds(),
                w.state(), layout);
    }
}
