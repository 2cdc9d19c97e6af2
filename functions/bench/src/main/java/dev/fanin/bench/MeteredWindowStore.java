package dev.fanin.bench;

import dev.fanin.aws.dynamodb.DueBucketItems;
import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.dynamodb.IdLayout;
import dev.fanin.aws.dynamodb.WindowItemCodec;
import dev.fanin.aws.dynamodb.WindowKeys;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.random.RandomGenerator;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A {@link WindowStore} that keeps windows in an {@link InMemoryWindowStore} and bills every call exactly as
 * {@link DynamoDbWindowStore} would make it: the same API calls (a conditional PutItem per window write, a
 * transaction for a merge, a PutItem and an UpdateItem for each spill, one Query per load, an UpdateItem or GetItem
 * of the open-window counter item per slot reservation, release, retirement or count), and request
 * units by {@link CapacityRules} over the items the adapter's own {@link WindowItemCodec} builds. Sizes of old items
 * are taken the way the adapter takes them (re-encoded from the loaded window), so {@link DynamoDbBill#tableWriteUnits()}
 * equals the sum of the adapter's size-based figures, which is what the functions report as their metric.
 *
 * <p>Due buckets are billed as the adapter writes them ({@link DueBucketItems}: a PutItem per item, a Query per page,
 * a BatchWriteItem per 25 deletes, each delete by the size of its item) and kept apart from the table's window writes
 * in {@link DynamoDbBill#dueBucketWriteUnits()}, as the services' {@code WriteUnits} metric leaves them out.
 *
 * <p>The store also keeps what DynamoDB would hold beyond the delegate: each window's sealed id slices and its
 * stored head size (for read units). Loaded windows carry the
 * {@link IdLayout} a DynamoDB load would rebuild from the slices, so the core passes the same layouts on as it
 * would in production. Single-threaded use (the simulation).
 */
public final class MeteredWindowStore implements WindowStore {

    private static final String TRANSACT = "TransactWriteItems";
    private static final String PUT = "PutItem";
    private static final String UPDATE = "UpdateItem";
    private static final String QUERY = "Query";
    private static final String GET = "GetItem";
    private static final String BATCH_WRITE = "BatchWriteItem";

    private final InMemoryWindowStore delegate;
    private final DynamoDbWindowStore.Settings settings;
    private final DynamoDbBill bill;
    private final Map<WindowRef, TreeMap<Integer, Set<String>>> slices = new HashMap<>();
    private final Map<WindowRef, Long> sliceBytes = new HashMap<>();
    private final Map<WindowRef, Long> headBytes = new HashMap<>();
    private final RandomGenerator random = new SplittableRandom(1);
    private long headWrites;
    private long headBytesWritten;
    private double slotWriteUnits;

    public MeteredWindowStore(DynamoDbWindowStore.Settings settings, DynamoDbBill bill) {
        this.delegate = new InMemoryWindowStore(settings.dueShards());
        this.settings = settings;
        this.bill = bill;
    }

    // ---------------------------------------------------------------- reads

    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        bill.call(QUERY);
        bill.read(CapacityRules.strongReadUnits(storedBytes(ref)));
        return delegate.load(ref);
    }

    @Override
    public List<StoredWindow> loadKey(String pipeline, String key) {
        List<StoredWindow> windows = delegate.loadKey(pipeline, key);
        bill.call(QUERY);
        bill.read(CapacityRules.strongReadUnits(windows.stream().mapToLong(w -> storedBytes(w.ref())).sum()));
        return windows;
    }

    @Override
    public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        if (entries.isEmpty()) {
            return;
        }
        int shard = WindowKeys.shardOf(entries.get(0), settings.dueShards());
        for (List<String> chunk : DueBucketItems.chunks(entries)) {
            bill.call(PUT);
            bill.dueBucketWrite(CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(DueBucketItems.item(pipeline, shard, dueAt, chunk, expiresAt, random))));
        }
        delegate.addDue(pipeline, dueAt, entries, expiresAt);
    }

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        DuePage page = delegate.due(pipeline, shard, dueBy, limit, cursor);
        bill.call(QUERY);
        long bytes = 0;
        for (DueBucket bucket : page.buckets()) {
            bytes += DynamoDbItemSize.bytes(DueBucketItems.itemOf(bucket));
        }
        bill.read(CapacityRules.strongReadUnits(bytes));
        return page;
    }

    @Override
    public void removeDue(List<DueBucket> buckets) {
        for (int from = 0; from < buckets.size(); from += DynamoDbWindowStore.MAX_BATCH_WRITE) {
            bill.call(BATCH_WRITE);
        }
        for (DueBucket bucket : buckets) {
            bill.dueBucketWrite(CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(DueBucketItems.itemOf(bucket))));
        }
        delegate.removeDue(buckets);
    }

    @Override
    public int dueShards() {
        return delegate.dueShards();
    }

    @Override
    public long openWindows(String pipeline) {
        billSlotsRead();
        return delegate.openWindows(pipeline);
    }

    /**
     * As the adapter: one conditional {@code UpdateItem} of the counter item; when not all of it fits, a
     * {@code GetItem} and one more {@code UpdateItem} for what is left, if anything.
     */
    @Override
    public int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        int ask = Math.min(wanted, maxOpenWindows);
        long free = maxOpenWindows - delegate.openWindows(pipeline);
        billSlotsWrite();
        if (free < ask) {
            billSlotsRead();
            if (free > 0) {
                billSlotsWrite();
            }
        }
        return delegate.reserveSlots(pipeline, epoch, ask, maxOpenWindows);
    }

    @Override
    public void releaseSlots(String pipeline, long epoch, int count) {
        if (count < 1) {
            return;
        }
        billSlotsWrite();
        delegate.releaseSlots(pipeline, epoch, count);
    }

    /** As the adapter: a {@code GetItem} of the counter item and one {@code UpdateItem} per epoch retired. */
    @Override
    public long retireEpochs(String pipeline, long before) {
        billSlotsRead();
        for (Long epoch : delegate.slotsByEpoch(pipeline).keySet()) {
            if (epoch < before) {
                billSlotsWrite();
            }
        }
        return delegate.retireEpochs(pipeline, before);
    }

    /** Write units spent on the open-window counter item (not part of the services' per-window WriteUnits metric). */
    public double slotWriteUnits() {
        return slotWriteUnits;
    }

    private void billSlotsRead() {
        bill.call(GET);
        bill.read(CapacityRules.strongReadUnits(0));
    }

    private void billSlotsWrite() {
        double units = CapacityRules.writeUnits(0, 0);
        bill.call(UPDATE);
        bill.write(units);
        slotWriteUnits += units;
    }

    // ---------------------------------------------------------------- writes

    @Override
    public WriteOutcome create(StoredWindow window) {
        IdLayout layout = layoutOf(window.layout());
        Set<String> headIds = headIds(window, layout);
        Map<String, AttributeValue> head = WindowItemCodec.head(window, 1, headIds);
        double units = CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(head));
        bill.call(PUT);
        bill.write(units);
        WriteOutcome outcome = delegate.create(withLayout(window, layoutAfter(window.ref(), headIds, layout)));
        if (!outcome.applied()) {
            return outcome;
        }
        return WriteOutcome.applied(units + written(window, 1, head, headIds, layout));
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        IdLayout layout = layoutOf(previous.layout());
        Set<String> headIds = headIds(next, layout);
        long version = previous.version() + 1;
        Map<String, AttributeValue> head = WindowItemCodec.head(next, version, headIds);
        double units = CapacityRules.writeUnits(previousHeadBytes(previous, layout), DynamoDbItemSize.bytes(head));
        bill.call(PUT);
        bill.write(units);
        WriteOutcome outcome = delegate.replace(previous, withLayout(next, layoutAfter(next.ref(), headIds, layout)));
        if (!outcome.applied()) {
            return outcome;
        }
        return WriteOutcome.applied(units + written(next, version, head, headIds, layout));
    }

    @Override
    public WriteOutcome replaceAll(List<StoredWindow> previous, List<StoredWindow> next) {
        List<Map<String, AttributeValue>> heads = new ArrayList<>();
        List<Set<String>> ids = new ArrayList<>();
        List<StoredWindow> laidOut = new ArrayList<>();
        double units = 0;
        for (int i = 0; i < previous.size(); i++) {
            StoredWindow before = previous.get(i);
            StoredWindow after = next.get(i);
            IdLayout layout = layoutOf(before.layout());
            Set<String> headIds = headIds(after, layout);
            Map<String, AttributeValue> head = WindowItemCodec.head(after, before.version() + 1, headIds);
            heads.add(head);
            ids.add(headIds);
            laidOut.add(withLayout(after, layoutAfter(after.ref(), headIds, layout)));
            units += CapacityRules.transactionalWriteUnits(previousHeadBytes(before, layout), DynamoDbItemSize.bytes(head));
        }
        bill.call(TRANSACT);
        bill.write(units);
        WriteOutcome outcome = delegate.replaceAll(previous, laidOut);
        if (!outcome.applied()) {
            return outcome;
        }
        double spillUnits = 0;
        for (int i = 0; i < next.size(); i++) {
            spillUnits += written(next.get(i), previous.get(i).version() + 1, heads.get(i), ids.get(i), layoutOf(previous.get(i).layout()));
        }
        return WriteOutcome.applied(units + spillUnits);
    }

    // ---------------------------------------------------------------- what DynamoDB would hold

    /**
     * After a successful head write: the adapter's spill (slice PutItem, head UpdateItem).
     *
     * @return the spill's write units, which the adapter adds to the write's outcome
     */
    private double written(StoredWindow window, long version, Map<String, AttributeValue> head, Set<String> headIds, IdLayout layout) {
        WindowRef ref = window.ref();
        headBytes.put(ref, DynamoDbItemSize.bytes(head));
        headWrites++;
        headBytesWritten += DynamoDbItemSize.bytes(head);
        if (headIds.size() <= settings.spillThreshold()) {
            return 0;
        }
        TreeMap<Integer, Set<String>> existing = slices.computeIfAbsent(ref, r -> new TreeMap<>());
        Map<String, AttributeValue> slice = WindowItemCodec.slice(ref, layout.nextSlice(), headIds, window.expiresAt());
        long bytes = DynamoDbItemSize.bytes(slice);
        double sliceUnits = CapacityRules.writeUnits(0, bytes);
        bill.call(PUT);
        bill.write(sliceUnits);
        if (existing.containsKey(layout.nextSlice())) {
            return sliceUnits; // attribute_not_exists fails: a stale layout; the adapter stops the spill here
        }
        existing.put(layout.nextSlice(), Set.copyOf(headIds));
        sliceBytes.merge(ref, bytes, Long::sum);
        double headUnits = CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(head));
        bill.call(UPDATE);
        bill.write(headUnits);
        headBytes.put(ref, DynamoDbItemSize.bytes(WindowItemCodec.head(window, version, Set.of())));
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

    /** The layout a load after this write would rebuild, assuming the write and its spill succeed. */
    private IdLayout layoutAfter(WindowRef ref, Set<String> headIds, IdLayout layout) {
        Set<String> sealed = new HashSet<>();
        int nextSlice = 0;
        TreeMap<Integer, Set<String>> existing = slices.getOrDefault(ref, new TreeMap<>());
        for (Map.Entry<Integer, Set<String>> slice : existing.entrySet()) {
            sealed.addAll(slice.getValue());
            nextSlice = slice.getKey() + 1;
        }
        if (headIds.size() > settings.spillThreshold() && !existing.containsKey(layout.nextSlice())) {
            sealed.addAll(headIds);
            nextSlice = Math.max(nextSlice, layout.nextSlice() + 1);
        }
        return new IdLayout(sealed, nextSlice);
    }

    private long storedBytes(WindowRef ref) {
        return headBytes.getOrDefault(ref, 0L) + sliceBytes.getOrDefault(ref, 0L);
    }

    private long previousHeadBytes(StoredWindow previous, IdLayout layout) {
        return DynamoDbItemSize.bytes(WindowItemCodec.head(previous, previous.version(), headIds(previous, layout)));
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
