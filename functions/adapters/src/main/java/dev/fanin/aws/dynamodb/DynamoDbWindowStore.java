package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.IDS;
import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.VERSION;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.aws.RetryPolicy;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.port.WriteOutcome.Rejection;
import dev.fanin.core.window.WindowRef;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * {@link WindowStore} on one DynamoDB table, with the item layout of docs/ARCHITECTURE.md ("Data model").
 *
 * <p>Invariants:
 * <ul>
 *   <li>Every head write is conditional: {@code attribute_not_exists(#pk)} on create, {@code #ver = :expected} on
 *       replace, and stores {@code ver = previous + 1}. A failed condition is returned as
 *       {@link Rejection#CONFLICT}, never thrown.</li>
 *   <li>Every committed event id is on the head or in a sealed slice numbered at most the head's {@code sn}, at every
 *       instant (see {@link #spill}); so a load reads the head and the slices its container does not hold
 *       ({@link SealedSlices}).</li>
 * </ul>
 *
 * <p>Open-window slots live on one counter item per pipeline ({@code pk = C#<pipeline>}, {@code sk = slots}):
 * {@code open} is the total held and {@code e<epoch>} the part held by windows created in each admission epoch.
 * Every change updates both in one {@code UpdateItem}: a reservation is conditional on the total staying within the
 * bound, a release on its epoch still being there (a retired epoch's slots were returned already), a retirement on
 * the epoch's count being the one read. One item takes about 1,000 updates a second, and the core reserves and
 * returns slots once per batch, not per window.
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

    static final String CREATE_CONDITION = "attribute_not_exists(#pk)";
    static final String VERSION_CONDITION = "#ver = :expected";
    static final String SLOTS_UPDATE = "ADD #open :n, #epoch :n";
    static final String RESERVE_CONDITION = "attribute_not_exists(#open) OR #open <= :room";
    static final String RELEASE_CONDITION = "attribute_exists(#epoch)";
    static final String RETIRE_UPDATE = "ADD #open :n REMOVE #epoch";
    static final String RETIRE_CONDITION = "#epoch = :held";
    static final String SLOTS_SK = "slots";
    static final String EPOCH_PREFIX = "e";
    static final String SPILL_HEAD_UPDATE = "DELETE #ids :spilled SET #sn = :written";
    static final String LEGACY_SPILL_HEAD_UPDATE = "DELETE #ids :spilled";
    static final String SPILL_HEAD_CONDITION = "#ver = :written";
    static final String OPEN = "open";
    /** Items read by the first page of a committed-session query: usually the session an event falls into. */
    public static final int FIRST_PAGE_ITEMS = 8;
    /** Items read by each further page of it (a session with many slices, or several sessions near the event). */
    public static final int NEXT_PAGE_ITEMS = 64;
    /** DynamoDB's limit on requests per BatchWriteItem. */
    public static final int MAX_BATCH_WRITE = 25;

    private final DynamoDbClient dynamo;
    private final String table;
    private final Settings settings;
    private final WriteCostListener costs;
    private final RandomGenerator random = new SecureRandom();
    private final SealedSlices sealed;
    private final DynamoDbSessions sessions;
    private final DueBucketDeletes dueDeletes;

    public DynamoDbWindowStore(DynamoDbClient dynamo, String table, Settings settings) {
        this(dynamo, table, settings, WriteCostListener.NONE);
    }

    public DynamoDbWindowStore(DynamoDbClient dynamo, String table, Settings settings, WriteCostListener costs) {
        this(dynamo, table, settings, costs, RetryPolicy.defaults());
    }

    /** @param retry how often, and how far apart, the deletes a BatchWriteItem left unprocessed are sent again */
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
        this.settings = Objects.requireNonNull(settings, "settings");
        this.costs = Objects.requireNonNull(costs, "costs");
        this.sealed = new SealedSlices(dynamo, table, Objects.requireNonNull(slices, "slices"));
        this.sessions = new DynamoDbSessions(dynamo, table, settings.spillThreshold(), costs, sealed);
        this.dueDeletes = new DueBucketDeletes(dynamo, table, costs, Objects.requireNonNull(retry, "retry"));
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
        return GetItemRequest.builder().tableName(table).key(headKey(ref)).consistentRead(true).build();
    }

    private static Map<String, AttributeValue> headKey(WindowRef ref) {
        return Map.of(PK, s(WindowKeys.windowPk(ref.pipeline(), ref.key())), SK, s(WindowKeys.headSk(ref.windowId())));
    }

    /** The session half, for tests of its exact requests. */
    DynamoDbSessions sessions() {
        return sessions;
    }

    @Override
    public LiveSessions loadLive(String pipeline, String key) {
        return sessions.loadLive(pipeline, key);
    }

    @Override
    public List<StoredWindow> closedSessions(String pipeline, String key, long fromMillis, long toMillis) {
        return sessions.closedSessions(pipeline, key, fromMillis, toMillis);
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

    private QueryResponse query(QueryRequest request, String operation) {
        return DynamoDbCalls.query(dynamo, request, operation);
    }

    // ---------------------------------------------------------------- due buckets

    @Override
    public void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt) {
        if (entries.isEmpty()) {
            return;
        }
        int shard = WindowKeys.shardOf(entries.get(0), settings.dueShards());
        for (List<String> chunk : DueBucketItems.chunks(entries)) {
            Map<String, AttributeValue> item = DueBucketItems.item(pipeline, shard, dueAt, chunk, expiresAt, random);
            double sizeBased = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(item));
            double reported;
            try {
                reported = reported(dynamo.putItem(PutItemRequest.builder()
                        .tableName(table)
                        .item(item)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build()).consumedCapacity());
            } catch (SdkException e) {
                throw DynamoDbFailures.translate("addDue", e);
            }
            costs.onWrite("addDue", reported, sizeBased);
        }
    }

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        QueryResponse page = query(dueRequest(pipeline, shard, dueBy, limit, cursor), "due");
        List<DueBucket> buckets = new ArrayList<>();
        for (Map<String, AttributeValue> item : page.items()) {
            buckets.add(DueBucketItems.bucket(pipeline, shard, item));
        }
        return new DuePage(buckets, page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                ? DueCursor.encode(page.lastEvaluatedKey()) : null);
    }

    QueryRequest dueRequest(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        if (shard < 0 || shard >= settings.dueShards()) {
            throw new IllegalArgumentException("due shard " + shard + " outside [0, " + settings.dueShards() + ")");
        }
        String pk = WindowKeys.dueBucketPk(pipeline, shard);
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk AND #sk < :after")
                .expressionAttributeNames(Map.of("#pk", PK, "#sk", SK))
                .expressionAttributeValues(Map.of(":pk", s(pk), ":after", s(DueBucketItems.skBound(dueBy))))
                .consistentRead(true)
                .scanIndexForward(true)
                .limit(limit)
                .exclusiveStartKey(cursor == null ? null : DueCursor.decode(cursor, pk))
                .build();
    }

    @Override
    public void removeDue(List<DueBucket> buckets) {
        dueDeletes.remove(buckets);
    }

    @Override
    public int dueShards() {
        return settings.dueShards();
    }

    @Override
    public long openWindows(String pipeline) {
        AttributeValue open = slotsItem(pipeline).get(OPEN);
        return open == null ? 0 : Long.parseLong(open.n());
    }

    @Override
    public int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        if (wanted < 1 || maxOpenWindows < 1) {
            throw new IllegalArgumentException("wanted and maxOpenWindows must be at least 1, were " + wanted + " and " + maxOpenWindows);
        }
        int ask = Math.min(wanted, maxOpenWindows);
        if (tryReserve(pipeline, epoch, ask, maxOpenWindows)) {
            return ask;
        }
        // Not all of it fits: take what is left, if anything, in one more conditional update.
        long held = openWindows(pipeline);
        int room = (int) Math.min(ask - 1, Math.max(0, maxOpenWindows - held));
        return room > 0 && tryReserve(pipeline, epoch, room, maxOpenWindows) ? room : 0;
    }

    private boolean tryReserve(String pipeline, long epoch, int n, int maxOpenWindows) {
        return updateSlots("reserveSlots", reserveRequest(pipeline, epoch, n, maxOpenWindows));
    }

    UpdateItemRequest reserveRequest(String pipeline, long epoch, int n, int maxOpenWindows) {
        return slotsRequest(pipeline, epoch, SLOTS_UPDATE, RESERVE_CONDITION, Map.of(":n", n(n), ":room", n((long) maxOpenWindows - n)));
    }

    @Override
    public void releaseSlots(String pipeline, long epoch, int count) {
        if (count >= 1) {
            // A refused condition means the epoch has retired: its slots came back then.
            updateSlots("releaseSlots", releaseRequest(pipeline, epoch, count));
        }
    }

    UpdateItemRequest releaseRequest(String pipeline, long epoch, int count) {
        return slotsRequest(pipeline, epoch, SLOTS_UPDATE, RELEASE_CONDITION, Map.of(":n", n(-(long) count)));
    }

    @Override
    public long retireEpochs(String pipeline, long before) {
        long returned = 0;
        for (Map.Entry<String, AttributeValue> attribute : slotsItem(pipeline).entrySet()) {
            Long epoch = epochOf(attribute.getKey());
            if (epoch == null || epoch >= before) {
                continue;
            }
            long held = Long.parseLong(attribute.getValue().n());
            // A refused condition means a late release landed in between: the next sweep retires the epoch.
            if (updateSlots("retireEpochs", retireRequest(pipeline, epoch, held))) {
                returned += held;
            }
        }
        return returned;
    }

    UpdateItemRequest retireRequest(String pipeline, long epoch, long held) {
        return slotsRequest(pipeline, epoch, RETIRE_UPDATE, RETIRE_CONDITION, Map.of(":n", n(-held), ":held", n(held)));
    }

    /** An update of the pipeline's counter item touching the total and one epoch's count. */
    private UpdateItemRequest slotsRequest(String pipeline, long epoch, String update, String condition,
                                           Map<String, AttributeValue> values) {
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(slotsKey(pipeline))
                .updateExpression(update)
                .conditionExpression(condition)
                .expressionAttributeNames(Map.of("#open", OPEN, "#epoch", EPOCH_PREFIX + epoch))
                .expressionAttributeValues(values)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * Runs one counter update; every one costs a unit, applied or refused by its condition.
     *
     * @return whether its condition held
     */
    private boolean updateSlots(String operation, UpdateItemRequest request) {
        try {
            UpdateItemResponse response = dynamo.updateItem(request);
            costs.onWrite(operation, reported(response.consumedCapacity()), 1);
            return true;
        } catch (ConditionalCheckFailedException refused) {
            costs.onWrite(operation, 0, 1);
            return false;
        } catch (SdkException e) {
            throw DynamoDbFailures.translate(operation, e);
        }
    }

    /** The epoch an attribute of the counter item counts, or null for any other attribute. */
    static Long epochOf(String attribute) {
        if (!attribute.startsWith(EPOCH_PREFIX) || attribute.length() == EPOCH_PREFIX.length()) {
            return null;
        }
        try {
            return Long.parseLong(attribute.substring(EPOCH_PREFIX.length()));
        } catch (NumberFormatException notAnEpoch) {
            return null;
        }
    }

    private Map<String, AttributeValue> slotsItem(String pipeline) {
        try {
            GetItemResponse response = dynamo.getItem(GetItemRequest.builder()
                    .tableName(table)
                    .key(slotsKey(pipeline))
                    .consistentRead(true)
                    .build());
            return response.hasItem() ? response.item() : Map.of();
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("openWindows", e);
        }
    }

    private static Map<String, AttributeValue> slotsKey(String pipeline) {
        return Map.of(PK, s(WindowKeys.counterPk(pipeline)), SK, s(SLOTS_SK));
    }

    // ---------------------------------------------------------------- writes

    @Override
    public WriteOutcome create(StoredWindow window) {
        IdLayout layout = IdLayout.of(window.layout());
        Set<String> headIds = headIds(window, layout);
        long written = window.version() + 1;
        Map<String, AttributeValue> head = WindowItemCodec.head(window, written, headIds, layout);
        double sizeBased = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(head));
        double reported;
        try {
            reported = reported(dynamo.putItem(createPutRequest(head)).consumedCapacity());
        } catch (ConditionalCheckFailedException conflict) {
            return WriteOutcome.rejected(Rejection.CONFLICT, sizeBased);
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("create", e);
        }
        costs.onWrite("create", reported, sizeBased);
        return applied(reported, sizeBased, spill(window, written, headIds, layout));
    }

    PutItemRequest createPutRequest(Map<String, AttributeValue> head) {
        Put put = createPut(head);
        return PutItemRequest.builder()
                .tableName(table)
                .item(put.item())
                .conditionExpression(put.conditionExpression())
                .expressionAttributeNames(put.expressionAttributeNames())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    private Put createPut(Map<String, AttributeValue> head) {
        return Put.builder()
                .tableName(table)
                .item(head)
                .conditionExpression(CREATE_CONDITION)
                .expressionAttributeNames(Map.of("#pk", PK))
                .build();
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        requireSameWindow(previous, next);
        IdLayout layout = IdLayout.of(previous.layout());
        Set<String> headIds = headIds(next, layout);
        long written = previous.version() + 1;
        Map<String, AttributeValue> head = WindowItemCodec.head(next, written, headIds, layout);
        double headUnits = DynamoDbItemSize.writeUnits(previousHeadBytes(previous, layout), DynamoDbItemSize.bytes(head));
        double sizeBased = headUnits;
        double reported;
        try {
            reported = reported(dynamo.putItem(replacePutRequest(head, previous.version())).consumedCapacity());
        } catch (ConditionalCheckFailedException conflict) {
            return WriteOutcome.rejected(Rejection.CONFLICT, headUnits);
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("replace", e);
        }
        costs.onWrite("replace", reported, sizeBased);
        return applied(reported, sizeBased, spill(next, written, headIds, layout));
    }

    PutItemRequest replacePutRequest(Map<String, AttributeValue> head, long expectedVersion) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(head)
                .conditionExpression(VERSION_CONDITION)
                .expressionAttributeNames(Map.of("#ver", VERSION))
                .expressionAttributeValues(Map.of(":expected", n(expectedVersion)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    @Override
    public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        return sessions.replaceLive(previous, next);
    }

    // ---------------------------------------------------------------- spill

    /**
     * Moves a committed head tail larger than the threshold into a new sealed slice, numbered by the version just
     * written (unique without reading: only this writer wrote that version): first the slice
     * ({@code attribute_not_exists}), then the head drops exactly those ids ({@code DELETE}) and records the slice as
     * its newest ({@code SET sn}) under the condition that it is still the version just written. The head rewrite
     * keeps the version: it changes where ids are kept, not which ids the window has, so a caller holding the version
     * it wrote can still write next. A crash or a lost race between the two steps leaves ids in both places, never in
     * neither (the slice is then one no head counts, read only by a load whose range covers it, harmlessly). Best
     * effort: a lost race or a transient failure ends the spill quietly (the next writer spills again); the window
     * write has already succeeded.
     *
     * @return size-based write units the spill consumed
     */
    double spill(StoredWindow window, long writtenVersion, Set<String> headIds, IdLayout layout) {
        if (headIds.size() <= settings.spillThreshold()) {
            return 0;
        }
        Map<String, AttributeValue> slice = WindowItemCodec.slice(window.ref(), writtenVersion, headIds, window.expiresAt());
        double sliceUnits = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(slice));
        double reported;
        try {
            reported = reported(dynamo.putItem(slicePutRequest(slice)).consumedCapacity());
        } catch (ConditionalCheckFailedException sliceTaken) {
            return sliceUnits;
        } catch (SdkException e) {
            return quietlyIfTransient(e, sliceUnits);
        }
        double headUnits = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(WindowItemCodec.head(window, writtenVersion, headIds, layout)));
        try {
            reported += reported(dynamo.updateItem(spillHeadRequest(window.ref(), writtenVersion, headIds, layout.legacy())).consumedCapacity());
        } catch (ConditionalCheckFailedException movedOn) {
            costs.onWrite("spill", reported, sliceUnits + headUnits);
            return sliceUnits + headUnits;
        } catch (SdkException e) {
            return quietlyIfTransient(e, sliceUnits + headUnits);
        }
        costs.onWrite("spill", reported, sliceUnits + headUnits);
        return sliceUnits + headUnits;
    }

    PutItemRequest slicePutRequest(Map<String, AttributeValue> slice) {
        return slicePutRequest(table, slice);
    }

    /** A sealed slice is created once: its number is unique (a window's or a live item's version). */
    static PutItemRequest slicePutRequest(String table, Map<String, AttributeValue> slice) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(slice)
                .conditionExpression(CREATE_CONDITION)
                .expressionAttributeNames(Map.of("#pk", PK))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** @param legacy the window is stored as before bounded loads: its head gets no {@code sn} */
    UpdateItemRequest spillHeadRequest(WindowRef ref, long writtenVersion, Set<String> spilled, boolean legacy) {
        Map<String, String> names = new HashMap<>(Map.of("#ids", IDS, "#ver", VERSION));
        if (!legacy) {
            names.put("#sn", WindowItemCodec.NEWEST_SLICE);
        }
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(headKey(ref))
                .updateExpression(legacy ? LEGACY_SPILL_HEAD_UPDATE : SPILL_HEAD_UPDATE)
                .conditionExpression(SPILL_HEAD_CONDITION)
                .expressionAttributeNames(names)
                .expressionAttributeValues(Map.of(":spilled", AttributeValue.fromSs(List.copyOf(spilled)), ":written", n(writtenVersion)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    private static double quietlyIfTransient(SdkException failure, double units) {
        if (DynamoDbFailures.isTransient(failure)) {
            return units;
        }
        throw failure;
    }

    // ---------------------------------------------------------------- helpers

    private static Set<String> headIds(StoredWindow window, IdLayout layout) {
        Set<String> ids = new HashSet<>(window.eventIds());
        ids.removeAll(layout.sealedIds());
        return ids;
    }

    private long previousHeadBytes(StoredWindow previous, IdLayout layout) {
        return DynamoDbItemSize.bytes(WindowItemCodec.head(previous, previous.version(), headIds(previous, layout), layout));
    }

    private static void requireSameWindow(StoredWindow previous, StoredWindow next) {
        if (!previous.ref().equals(next.ref())) {
            throw new IllegalArgumentException("cannot replace window " + previous.ref() + " by " + next.ref());
        }
    }

    private static WriteOutcome applied(double reported, double sizeBased, double spillUnits) {
        return WriteOutcome.applied((reported > 0 ? reported : sizeBased) + spillUnits);
    }

    private static double reported(ConsumedCapacity consumed) {
        return DynamoDbCalls.reported(consumed);
    }

    private static double reported(List<ConsumedCapacity> consumed) {
        return DynamoDbCalls.reported(consumed);
    }
}
