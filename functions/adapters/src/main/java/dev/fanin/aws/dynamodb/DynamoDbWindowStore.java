package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.VERSION;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.aws.RetryPolicy;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * {@link WindowStore} on one DynamoDB table, with the item layout of docs/ARCHITECTURE.md ("Data model"): the loads of
 * windows here, and one class for each other part of the table: window heads and their spills ({@link HeadWrites}), a
 * key's sessions ({@link DynamoDbSessions}), the due buckets ({@link DueBuckets}) and the open-window counter
 * ({@link OpenWindowSlots}).
 *
 * <p>{@link WriteOutcome#writeUnits()} is what DynamoDB reported ({@code ReturnConsumedCapacity.TOTAL}) or, when
 * it reported nothing, the size-based figure; both figures go to the {@link WriteCostListener}.
 */
public final class DynamoDbWindowStore implements WindowStore {

    /**
     * @param dueShards      due-bucket shards per pipeline (spreads buckets falling due together)
     * @param spillThreshold a head holding more ids than this after a write has them moved to a sealed slice
     */
    public record Settings(int dueShards, int spillThreshold) {

        public Settings {
            if (dueShards < 1 || spillThreshold < 1) {
                throw new IllegalArgumentException("dueShards and spillThreshold must be at least 1");
            }
        }

        public static Settings defaults() {
            return new Settings(16, 32);
        }

        public Settings withSpillThreshold(int threshold) {
            return new Settings(dueShards, threshold);
        }
    }

    /** Items read by the first page of a committed-session query: usually the session an event falls into. */
    public static final int FIRST_PAGE_ITEMS = 8;
    /** Items read by each further page of it (a session with many slices, or several sessions near the event). */
    public static final int NEXT_PAGE_ITEMS = 64;
    /** DynamoDB's limit on requests per BatchWriteItem. */
    public static final int MAX_BATCH_WRITE = 25;
    /** DynamoDB's limit on keys per BatchGetItem. */
    public static final int MAX_BATCH_GET = 100;

    private final DynamoDbClient dynamo;
    private final String table;
    private final SealedSlices sealed;
    private final HeadWrites heads;
    private final DynamoDbSessions sessions;
    private final DueBuckets dueBuckets;
    private final OpenWindowSlots slots;
    private final BatchGets batchGets;

    public DynamoDbWindowStore(DynamoDbClient dynamo, String table, Settings settings) {
        this(dynamo, table, settings, WriteCostListener.NONE);
    }

    public DynamoDbWindowStore(DynamoDbClient dynamo, String table, Settings settings, WriteCostListener costs) {
        this(dynamo, table, settings, costs, RetryPolicy.defaults());
    }

    /**
     * @param retry how often, and how far apart, the deletes a BatchWriteItem and the keys a BatchGetItem left unprocessed
     *              are sent again
     */
    public DynamoDbWindowStore(DynamoDbClient dynamo, String table, Settings settings, WriteCostListener costs, RetryPolicy retry) {
        this(dynamo, table, settings, costs, retry, SliceCache.ofDefaultSize());
    }

    /**
     * @param slices the sealed slices this store's loads have read: one per function container (the store is built
     *               once per container); tests pass their own to load cold or warm
     */
    public DynamoDbWindowStore(DynamoDbClient dynamo, String table, Settings settings, WriteCostListener costs, RetryPolicy retry,
                               SliceCache slices) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(costs, "costs");
        this.sealed = new SealedSlices(dynamo, table, Objects.requireNonNull(slices, "slices"));
        this.heads = new HeadWrites(dynamo, table, settings.spillThreshold(), costs);
        this.sessions = new DynamoDbSessions(dynamo, table, settings.spillThreshold(), costs, sealed);
        this.dueBuckets = new DueBuckets(dynamo, table, settings.dueShards(), costs,
                new DueBucketDeletes(dynamo, table, costs, Objects.requireNonNull(retry, "retry")));
        this.slots = new OpenWindowSlots(dynamo, table, costs);
        this.batchGets = new BatchGets(dynamo, table, retry);
    }

    // ---------------------------------------------------------------- reads

    /**
     * A strongly consistent {@code GetItem} of the head, then the slices sealed since this container last read the
     * window ({@link SealedSlices}); a head stored before bounded loads (no {@code sn}) has every item of the window
     * read with one {@code Query}, as then.
     */
    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        Map<String, AttributeValue> head;
        try {
            head = dynamo.getItem(headGetRequest(ref)).item();
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("load", e);
        }
        return window(ref, head);
    }

    /** The heads of {@code refs} in {@code BatchGetItem} calls ({@link BatchGets}), each then as {@link #load} goes on. */
    @Override
    public Map<WindowRef, Optional<StoredWindow>> loadAll(List<WindowRef> refs) {
        return readTogether(refs, WindowItemCodec::headKey, this::window, "loadAll");
    }

    /** The live items of {@code keys} in {@code BatchGetItem} calls ({@link BatchGets}), each then as {@link #loadLive} goes on. */
    @Override
    public Map<String, LiveSessions> loadLiveAll(String pipeline, List<String> keys) {
        return readTogether(keys, key -> DynamoDbSessions.liveKey(pipeline, key), (key, item) -> sessions.live(pipeline, key, item), "loadLiveAll");
    }

    /** Each target's item, read together and decoded; a target whose key was left unprocessed is left out. */
    private <T, R> Map<T, R> readTogether(List<T> targets, Function<T, Map<String, AttributeValue>> key,
                                          BiFunction<T, Map<String, AttributeValue>, R> decode, String operation) {
        Map<T, BatchGets.ItemKey> keys = new LinkedHashMap<>();
        targets.forEach(t -> keys.put(t, BatchGets.ItemKey.of(key.apply(t))));
        Map<BatchGets.ItemKey, Map<String, AttributeValue>> items = batchGets.read(List.copyOf(keys.values()), operation);
        Map<T, R> loaded = new LinkedHashMap<>();
        keys.forEach((target, itemKey) -> {
            Map<String, AttributeValue> item = items.get(itemKey);
            if (item != null) {
                loaded.put(target, decode.apply(target, item));
            }
        });
        return loaded;
    }

    /** The window of a head as read (null or empty: none), with the slices the container lacks. */
    private Optional<StoredWindow> window(WindowRef ref, Map<String, AttributeValue> head) {
        if (head == null || head.isEmpty()) {
            return Optional.empty();
        }
        if (!WindowItemCodec.bounded(head)) {
            List<StoredWindow> windows = WindowItemCodec.windows(ref.pipeline(), queryAll(loadRequest(ref), "load"));
            return windows.isEmpty() ? Optional.empty() : Optional.of(windows.get(0));
        }
        IdLayout layout = sealed.read(head.get(PK).s(), ref.windowId(), Long.parseLong(head.get(VERSION).n()),
                Long.parseLong(head.get(WindowItemCodec.TTL).n()), WindowItemCodec.newestSlice(head));
        return Optional.of(WindowItemCodec.window(ref.pipeline(), head, layout));
    }

    GetItemRequest headGetRequest(WindowRef ref) {
        return GetItemRequest.builder().tableName(table).key(WindowItemCodec.headKey(ref)).consistentRead(true).build();
    }

    // The parts, for tests of their exact requests.

    HeadWrites heads() {
        return heads;
    }

    DynamoDbSessions sessions() {
        return sessions;
    }

    DueBuckets dueBuckets() {
        return dueBuckets;
    }

    OpenWindowSlots slots() {
        return slots;
    }

    @Override
    public LiveSessions loadLive(String pipeline, String key) {
        return sessions.loadLive(pipeline, key);
    }

    /** The committed sessions' heads ({@link DynamoDbSessions#closedHeads}), each then as {@link #load} goes on. */
    @Override
    public List<StoredWindow> closedSessions(String pipeline, String key, long fromMillis, long toMillis) {
        List<StoredWindow> windows = new ArrayList<>();
        for (Map<String, AttributeValue> head : sessions.closedHeads(pipeline, key, fromMillis, toMillis)) {
            window(new WindowRef(pipeline, key, WindowKeys.windowIdOf(head.get(SK).s())), head).ifPresent(windows::add);
        }
        return windows;
    }

    /**
     * Every window stored for a group key, in id order: time windows and committed sessions from their own items, and
     * the key's live sessions from its live item (a live copy standing for a committed copy its committer has already
     * written). For tools and tests that show a key: the services never read a key's whole history.
     */
    public List<StoredWindow> windowsOfKey(String pipeline, String key) {
        List<Map<String, AttributeValue>> items = queryAll(QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", PK))
                .expressionAttributeValues(Map.of(":pk", s(WindowKeys.windowPk(pipeline, key))))
                .consistentRead(true)
                .build(), "windowsOfKey");
        Map<String, AttributeValue> live = null;
        List<Map<String, AttributeValue>> windowItems = new ArrayList<>();
        for (Map<String, AttributeValue> item : items) {
            if (LiveItemCodec.LIVE_SK.equals(item.get(SK).s())) {
                live = item;
            } else {
                windowItems.add(item);
            }
        }
        Map<String, List<Map<String, AttributeValue>>> slices = new HashMap<>();
        for (Map<String, AttributeValue> item : windowItems) {
            if (WindowKeys.sliceOf(item.get(SK).s()) >= 0) {
                slices.computeIfAbsent(WindowKeys.windowIdOf(item.get(SK).s()), id -> new ArrayList<>()).add(item);
            }
        }
        Map<String, IdLayout> layouts = new HashMap<>();
        for (Map.Entry<String, List<Map<String, AttributeValue>>> session : slices.entrySet()) {
            IdLayout all = SealedSlices.legacy(session.getValue());
            long newest = live == null ? -1 : LiveItemCodec.newestSlice(live, session.getKey());
            layouts.put(session.getKey(), newest < 0 ? all : new IdLayout(all.sealedIds(), Math.max(newest, all.newestSlice()), false));
        }
        Map<String, StoredWindow> windows = new java.util.TreeMap<>();
        WindowItemCodec.windows(pipeline, windowItems).forEach(w -> windows.put(w.ref().windowId(), w));
        LiveItemCodec.read(pipeline, key, live, layouts).sessions().forEach(w -> windows.put(w.ref().windowId(), w));
        return List.copyOf(windows.values());
    }

    /** Every item of a window stored before bounded loads: its head and all of its slices. */
    QueryRequest loadRequest(WindowRef ref) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk AND begins_with(#sk, :wid)")
                .expressionAttributeNames(Map.of("#pk", PK, "#sk", SK))
                .expressionAttributeValues(Map.of(
                        ":pk", s(WindowKeys.windowPk(ref.pipeline(), ref.key())),
                        ":wid", s(WindowKeys.windowSkPrefix(ref.windowId()))))
                .consistentRead(true)
                .build();
    }

    private List<Map<String, AttributeValue>> queryAll(QueryRequest request, String operation) {
        return QueryPages.all(dynamo, request, operation);
    }

    // ---------------------------------------------------------------- writes

    @Override
    public WriteOutcome create(StoredWindow window) {
        return heads.create(window);
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        return heads.replace(previous, next);
    }

    @Override
    public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        return sessions.replaceLive(previous, next);
    }

    // ---------------------------------------------------------------- due buckets and the open-window counter

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
        return dueBuckets.shards();
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
}
