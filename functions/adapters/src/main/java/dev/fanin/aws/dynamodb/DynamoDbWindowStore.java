package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.IDS;
import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.VERSION;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.port.WriteOutcome.Rejection;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link WindowStore} on one DynamoDB table, with the item layout of docs/ARCHITECTURE.md ("Data model").
 *
 * <p>Invariants:
 * <ul>
 *   <li>Every head write is conditional: {@code attribute_not_exists(#pk)} on create, {@code #ver = :expected} on
 *       replace, and stores {@code ver = previous + 1}. A failed condition is returned as
 *       {@link Rejection#CONFLICT}, never thrown.</li>
 *   <li>A window counts against its pipeline's open-window counter exactly while its status
 *       {@linkplain dev.fanin.core.window.WindowStatus#isOpen() is open}: the create, and every write that moves
 *       it out of (or back into) the open set, carries the counter change in the same transaction. A window always uses the
 *       same counter shard (a stable hash of key and window id), so each shard's count is exact.</li>
 *   <li>Every committed event id is on the head or in a sealed slice, at every instant (see {@link #spill}).</li>
 * </ul>
 *
 * <p>Admission exactness: with {@code counterShards = 1} (the default) the bound is exact. With {@code n > 1}
 * shards each shard admits {@code max(1, maxOpenWindows / n)} windows, so the pipeline never holds more than
 * {@code n * max(1, maxOpenWindows / n)} (which is {@code maxOpenWindows} when it is a multiple of {@code n} and not
 * smaller than {@code n}), and under an uneven spread a shard can refuse before the pipeline reaches the bound.
 *
 * <p>{@link WriteOutcome#writeUnits()} is what DynamoDB reported ({@code ReturnConsumedCapacity.TOTAL}) or, when
 * it reported nothing, the size-based figure; both figures go to the {@link WriteCostListener}.
 */
public final class DynamoDbWindowStore implements WindowStore {

    /**
     * @param dueShards      due-index shards per pipeline (spreads windows falling due together)
     * @param counterShards  open-window counter items per pipeline (1: exact bound, see the class comment)
     * @param spillThreshold a head holding more ids than this after a write has them moved to a sealed slice
     * @param dueIndexName   name of the due GSI ({@code dsh}, {@code due})
     */
    public record Settings(int dueShards, int counterShards, int spillThreshold, String dueIndexName) {

        public Settings {
            if (dueShards < 1 || counterShards < 1 || spillThreshold < 1) {
                throw new IllegalArgumentException("dueShards, counterShards and spillThreshold must be at least 1");
            }
            Objects.requireNonNull(dueIndexName, "dueIndexName");
        }

        public static Settings defaults() {
            return new Settings(16, 1, 32, WindowTableSchema.DEFAULT_DUE_INDEX);
        }

        public Settings withSpillThreshold(int threshold) {
            return new Settings(dueShards, counterShards, threshold, dueIndexName);
        }

        public Settings withCounterShards(int shards) {
            return new Settings(dueShards, shards, spillThreshold, dueIndexName);
        }
    }

    static final String CREATE_CONDITION = "attribute_not_exists(#pk)";
    static final String VERSION_CONDITION = "#ver = :expected";
    static final String ADMIT_UPDATE = "ADD #open :one";
    static final String ADMIT_CONDITION = "attribute_not_exists(#open) OR #open < :limit";
    static final String COUNT_UPDATE = "ADD #open :delta";
    static final String SPILL_HEAD_UPDATE = "DELETE #ids :spilled";
    static final String SPILL_HEAD_CONDITION = "#ver = :written";
    static final String OPEN = "open";
    /** DynamoDB's limit on items per TransactWriteItems. */
    static final int MAX_TRANSACTION_ITEMS = 100;

    private final DynamoDbClient dynamo;
    private final String table;
    private final Settings settings;
    private final WriteCostListener costs;

    public DynamoDbWindowStore(DynamoDbClient dynamo, String table, Settings settings) {
        this(dynamo, table, settings, WriteCostListener.NONE);
    }

    public DynamoDbWindowStore(DynamoDbClient dynamo, String table, Settings settings, WriteCostListener costs) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.costs = Objects.requireNonNull(costs, "costs");
    }

    // ---------------------------------------------------------------- reads

    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        List<Map<String, AttributeValue>> items = queryAll(loadRequest(ref), "load");
        List<StoredWindow> windows = assemble(ref.pipeline(), items);
        return windows.isEmpty() ? Optional.empty() : Optional.of(windows.get(0));
    }

    @Override
    public List<StoredWindow> loadKey(String pipeline, String key) {
        return assemble(pipeline, queryAll(loadKeyRequest(pipeline, key), "loadKey"));
    }

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

    QueryRequest loadKeyRequest(String pipeline, String key) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", PK))
                .expressionAttributeValues(Map.of(":pk", s(WindowKeys.windowPk(pipeline, key))))
                .consistentRead(true)
                .build();
    }

    /** Groups a partition's items (in sort-key order, so oldest window first) into windows; slices without a head are ignored. */
    private static List<StoredWindow> assemble(String pipeline, List<Map<String, AttributeValue>> items) {
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
        heads.forEach((windowId, head) ->
                windows.add(WindowItemCodec.window(pipeline, head, slices.getOrDefault(windowId, List.of()))));
        return windows;
    }

    private List<Map<String, AttributeValue>> queryAll(QueryRequest request, String operation) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = query(request.toBuilder().exclusiveStartKey(start).build(), operation);
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    private QueryResponse query(QueryRequest request, String operation) {
        try {
            return dynamo.query(request);
        } catch (SdkException e) {
            throw DynamoDbFailures.translate(operation, e);
        }
    }

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        QueryResponse page = query(dueRequest(pipeline, shard, dueBy, limit, cursor), "due");
        List<DueEntry> entries = new ArrayList<>();
        for (Map<String, AttributeValue> item : page.items()) {
            String sk = item.get(SK).s();
            WindowRef ref = new WindowRef(pipeline, WindowKeys.keyOf(pipeline, item.get(PK).s()), WindowKeys.windowIdOf(sk));
            entries.add(new DueEntry(ref, Instant.ofEpochMilli(Long.parseLong(item.get(WindowItemCodec.DUE).n()))));
        }
        return new DuePage(entries, page.hasLastEvaluatedKey() ? DueCursor.encode(page.lastEvaluatedKey()) : null);
    }

    QueryRequest dueRequest(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        if (shard < 0 || shard >= settings.dueShards()) {
            throw new IllegalArgumentException("due shard " + shard + " outside [0, " + settings.dueShards() + ")");
        }
        String dueShardKey = WindowKeys.dueShardKey(pipeline, shard);
        return QueryRequest.builder()
                .tableName(table)
                .indexName(settings.dueIndexName())
                .keyConditionExpression("#dsh = :dsh AND #due <= :by")
                .expressionAttributeNames(Map.of("#dsh", WindowItemCodec.DUE_SHARD, "#due", WindowItemCodec.DUE))
                .expressionAttributeValues(Map.of(":dsh", s(dueShardKey), ":by", n(dueBy.toEpochMilli())))
                .scanIndexForward(true)
                .limit(limit)
                .exclusiveStartKey(cursor == null ? null : DueCursor.decode(cursor, dueShardKey))
                .build();
    }

    @Override
    public int dueShards() {
        return settings.dueShards();
    }

    @Override
    public long openWindows(String pipeline) {
        QueryRequest request = QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", PK))
                .expressionAttributeValues(Map.of(":pk", s(WindowKeys.counterPk(pipeline))))
                .consistentRead(true)
                .build();
        long open = 0;
        for (Map<String, AttributeValue> shard : queryAll(request, "openWindows")) {
            AttributeValue count = shard.get(OPEN);
            open += count == null ? 0 : Long.parseLong(count.n());
        }
        return open;
    }

    // ---------------------------------------------------------------- writes

    @Override
    public WriteOutcome create(StoredWindow window, int maxOpenWindows) {
        if (window.version() != 0) {
            throw new IllegalArgumentException("create takes a window never stored (version 0), got version " + window.version());
        }
        if (maxOpenWindows < 1) {
            throw new IllegalArgumentException("maxOpenWindows must be at least 1, was " + maxOpenWindows);
        }
        IdLayout layout = IdLayout.of(window.layout());
        Set<String> headIds = headIds(window, layout);
        Map<String, AttributeValue> head = WindowItemCodec.head(window, 1, headIds, settings.dueShards());
        double sizeBased;
        double reported;
        try {
            if (window.status().isOpen()) {
                sizeBased = 2 * (DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(head)) + 1);
                reported = reported(dynamo.transactWriteItems(createRequest(window.ref(), head, maxOpenWindows)).consumedCapacity());
            } else {
                sizeBased = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(head));
                reported = reported(dynamo.putItem(createPutRequest(head)).consumedCapacity());
            }
        } catch (TransactionCanceledException cancelled) {
            return rejectedOrThrow("create", cancelled, createRejection(cancelled), 2 * DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(head)));
        } catch (ConditionalCheckFailedException conflict) {
            return WriteOutcome.rejected(Rejection.CONFLICT, DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(head)));
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("create", e);
        }
        costs.onWrite("create", reported, sizeBased);
        return applied(reported, sizeBased, spill(window, 1, headIds, layout));
    }

    TransactWriteItemsRequest createRequest(WindowRef ref, Map<String, AttributeValue> head, int maxOpenWindows) {
        long limit = perShardLimit(maxOpenWindows, settings.counterShards());
        Update admit = Update.builder()
                .tableName(table)
                .key(counterKey(ref))
                .updateExpression(ADMIT_UPDATE)
                .conditionExpression(ADMIT_CONDITION)
                .expressionAttributeNames(Map.of("#open", OPEN))
                .expressionAttributeValues(Map.of(":one", n(1), ":limit", n(limit)))
                .build();
        return TransactWriteItemsRequest.builder()
                .transactItems(
                        TransactWriteItem.builder().put(createPut(head)).build(),
                        TransactWriteItem.builder().update(admit).build())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
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

    /** Windows each counter shard admits; see the class comment for what that makes of the bound. */
    static long perShardLimit(int maxOpenWindows, int counterShards) {
        return Math.max(1, maxOpenWindows / counterShards);
    }

    private static Rejection createRejection(TransactionCanceledException cancelled) {
        List<CancellationReason> reasons = cancelled.hasCancellationReasons() ? cancelled.cancellationReasons() : List.of();
        if (reasons.size() > 1 && "ConditionalCheckFailed".equals(reasons.get(1).code())
                && !"ConditionalCheckFailed".equals(reasons.get(0).code())) {
            return Rejection.OPEN_WINDOW_BOUND;
        }
        return Rejection.CONFLICT;
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        requireSameWindow(previous, next);
        IdLayout layout = IdLayout.of(previous.layout());
        Set<String> headIds = headIds(next, layout);
        long written = previous.version() + 1;
        Map<String, AttributeValue> head = WindowItemCodec.head(next, written, headIds, settings.dueShards());
        double headUnits = DynamoDbItemSize.writeUnits(previousHeadBytes(previous, layout), DynamoDbItemSize.bytes(head));
        boolean countChanges = openDelta(previous, next) != 0;
        double sizeBased = countChanges ? 2 * (headUnits + 1) : headUnits;
        double reported;
        try {
            if (countChanges) {
                reported = reported(dynamo.transactWriteItems(replaceAllRequest(List.of(previous), List.of(next), List.of(head))).consumedCapacity());
            } else {
                reported = reported(dynamo.putItem(replacePutRequest(head, previous.version())).consumedCapacity());
            }
        } catch (ConditionalCheckFailedException conflict) {
            return WriteOutcome.rejected(Rejection.CONFLICT, headUnits);
        } catch (TransactionCanceledException cancelled) {
            return rejectedOrThrow("replace", cancelled, Rejection.CONFLICT, 2 * headUnits);
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
    public WriteOutcome replaceAll(List<StoredWindow> previous, List<StoredWindow> next) {
        if (previous.size() != next.size() || previous.isEmpty()) {
            throw new IllegalArgumentException("replaceAll takes equally many (and at least one) previous and next windows");
        }
        List<Map<String, AttributeValue>> heads = new ArrayList<>();
        List<Set<String>> headIds = new ArrayList<>();
        double sizeBased = 0;
        for (int i = 0; i < previous.size(); i++) {
            StoredWindow before = previous.get(i);
            StoredWindow after = next.get(i);
            requireSameWindow(before, after);
            IdLayout layout = IdLayout.of(before.layout());
            Set<String> ids = headIds(after, layout);
            Map<String, AttributeValue> head = WindowItemCodec.head(after, before.version() + 1, ids, settings.dueShards());
            heads.add(head);
            headIds.add(ids);
            sizeBased += 2 * DynamoDbItemSize.writeUnits(previousHeadBytes(before, layout), DynamoDbItemSize.bytes(head));
        }
        TransactWriteItemsRequest request = replaceAllRequest(previous, next, heads);
        sizeBased += 2.0 * (request.transactItems().size() - heads.size());
        double reported;
        try {
            reported = reported(dynamo.transactWriteItems(request).consumedCapacity());
        } catch (TransactionCanceledException cancelled) {
            return rejectedOrThrow("replaceAll", cancelled, Rejection.CONFLICT, sizeBased);
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("replaceAll", e);
        }
        costs.onWrite("replaceAll", reported, sizeBased);
        double spillUnits = 0;
        for (int i = 0; i < next.size(); i++) {
            StoredWindow before = previous.get(i);
            spillUnits += spill(next.get(i), before.version() + 1, headIds.get(i), IdLayout.of(before.layout()));
        }
        return applied(reported, sizeBased, spillUnits);
    }

    /**
     * The heads, each conditional on its loaded version, plus one {@code ADD} per counter shard whose count
     * changes: -1 for each window leaving the open set, +1 for each window re-entering it (a closed window
     * claimed again for a late correction; never refused, it was admitted when created). A transaction may not
     * touch one item twice, so the changes to one shard are summed, and shards whose changes cancel out are left
     * alone.
     */
    TransactWriteItemsRequest replaceAllRequest(List<StoredWindow> previous, List<StoredWindow> next, List<Map<String, AttributeValue>> heads) {
        List<TransactWriteItem> items = new ArrayList<>();
        Map<Map<String, AttributeValue>, Integer> deltas = new LinkedHashMap<>();
        for (int i = 0; i < heads.size(); i++) {
            items.add(TransactWriteItem.builder().put(Put.builder()
                    .tableName(table)
                    .item(heads.get(i))
                    .conditionExpression(VERSION_CONDITION)
                    .expressionAttributeNames(Map.of("#ver", VERSION))
                    .expressionAttributeValues(Map.of(":expected", n(previous.get(i).version())))
                    .build()).build());
            deltas.merge(counterKey(previous.get(i).ref()), openDelta(previous.get(i), next.get(i)), Integer::sum);
        }
        deltas.forEach((counter, delta) -> {
            if (delta != 0) {
                items.add(TransactWriteItem.builder().update(Update.builder()
                        .tableName(table)
                        .key(counter)
                        .updateExpression(COUNT_UPDATE)
                        .expressionAttributeNames(Map.of("#open", OPEN))
                        .expressionAttributeValues(Map.of(":delta", n(delta)))
                        .build()).build());
            }
        });
        if (items.size() > MAX_TRANSACTION_ITEMS) {
            throw new IllegalArgumentException("replaceAll would write " + items.size() + " items; DynamoDB allows "
                    + MAX_TRANSACTION_ITEMS + " per transaction");
        }
        return TransactWriteItemsRequest.builder()
                .transactItems(items)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    // ---------------------------------------------------------------- spill

    /**
     * Moves a committed head tail larger than the threshold into a new sealed slice: first the slice
     * ({@code attribute_not_exists}), then the head drops exactly those ids ({@code DELETE}) under the condition
     * that it is still the version just written. The head rewrite keeps the version: it changes where ids are kept,
     * not which ids the window has, so a caller holding the version it wrote can still write next. A crash or a
     * lost race between the two steps leaves ids in both places, never in neither. Best effort: a lost race or a
     * transient failure ends the spill quietly (the next writer spills again); the window write has already
     * succeeded.
     *
     * @return size-based write units the spill consumed
     */
    double spill(StoredWindow window, long writtenVersion, Set<String> headIds, IdLayout layout) {
        if (headIds.size() <= settings.spillThreshold()) {
            return 0;
        }
        Map<String, AttributeValue> slice = WindowItemCodec.slice(window.ref(), layout.nextSlice(), headIds, window.expiresAt());
        double sliceUnits = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(slice));
        double reported;
        try {
            reported = reported(dynamo.putItem(slicePutRequest(slice)).consumedCapacity());
        } catch (ConditionalCheckFailedException sliceTaken) {
            return sliceUnits;
        } catch (SdkException e) {
            return quietlyIfTransient(e, sliceUnits);
        }
        double headUnits = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(WindowItemCodec.head(window, writtenVersion, headIds, settings.dueShards())));
        try {
            reported += reported(dynamo.updateItem(spillHeadRequest(window.ref(), writtenVersion, headIds)).consumedCapacity());
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
        return PutItemRequest.builder()
                .tableName(table)
                .item(slice)
                .conditionExpression(CREATE_CONDITION)
                .expressionAttributeNames(Map.of("#pk", PK))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    UpdateItemRequest spillHeadRequest(WindowRef ref, long writtenVersion, Set<String> spilled) {
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(Map.of(PK, s(WindowKeys.windowPk(ref.pipeline(), ref.key())), SK, s(WindowKeys.headSk(ref.windowId()))))
                .updateExpression(SPILL_HEAD_UPDATE)
                .conditionExpression(SPILL_HEAD_CONDITION)
                .expressionAttributeNames(Map.of("#ids", IDS, "#ver", VERSION))
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

    private Map<String, AttributeValue> counterKey(WindowRef ref) {
        int shard = WindowKeys.shardOf(ref, settings.counterShards());
        return Map.of(PK, s(WindowKeys.counterPk(ref.pipeline())), SK, s(Integer.toString(shard)));
    }

    private static Set<String> headIds(StoredWindow window, IdLayout layout) {
        Set<String> ids = new HashSet<>(window.eventIds());
        ids.removeAll(layout.sealedIds());
        return ids;
    }

    private long previousHeadBytes(StoredWindow previous, IdLayout layout) {
        return DynamoDbItemSize.bytes(WindowItemCodec.head(previous, previous.version(), headIds(previous, layout), settings.dueShards()));
    }

    /** How the window changes its pipeline's open count: -1 leaving the open set, +1 re-entering it, else 0. */
    static int openDelta(StoredWindow previous, StoredWindow next) {
        return (next.status().isOpen() ? 1 : 0) - (previous.status().isOpen() ? 1 : 0);
    }

    private static void requireSameWindow(StoredWindow previous, StoredWindow next) {
        if (!previous.ref().equals(next.ref())) {
            throw new IllegalArgumentException("cannot replace window " + previous.ref() + " by " + next.ref());
        }
    }

    private static WriteOutcome rejectedOrThrow(String operation, TransactionCanceledException cancelled, Rejection rejection, double units) {
        if (DynamoDbFailures.isThrottled(cancelled)) {
            throw new StoreUnavailableException("DynamoDB " + operation + " was throttled: " + cancelled.getMessage(), cancelled);
        }
        boolean raced = cancelled.hasCancellationReasons()
                && cancelled.cancellationReasons().stream().anyMatch(DynamoDbFailures::isConditionOrConflict);
        if (!raced) {
            throw DynamoDbFailures.translate(operation, cancelled);
        }
        return WriteOutcome.rejected(rejection, units);
    }

    private static WriteOutcome applied(double reported, double sizeBased, double spillUnits) {
        return WriteOutcome.applied((reported > 0 ? reported : sizeBased) + spillUnits);
    }

    private static double reported(ConsumedCapacity consumed) {
        return consumed == null || consumed.capacityUnits() == null ? 0 : consumed.capacityUnits();
    }

    private static double reported(List<ConsumedCapacity> consumed) {
        return consumed == null ? 0 : consumed.stream().mapToDouble(DynamoDbWindowStore::reported).sum();
    }
}
