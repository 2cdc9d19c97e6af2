package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.VERSION;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.core.config.SinkLimits;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.port.WriteOutcome.Rejection;
import dev.fanin.core.window.WindowRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The session half of {@link DynamoDbWindowStore}: a key's live item ({@link LiveItemCodec}), read with one strongly
 * consistent {@code GetItem} (plus one {@code Query} of the slices of each live session that has sealed any) and
 * replaced with one {@code PutItem} conditional on its version; and the heads of the committed sessions around an event
 * time, read with a descending {@code Query} of the key's partition that stops at the first session starting at or
 * before it.
 *
 * <p>A live session's recent ids spill as a committed window's do: after the write, the tail goes to a new slice
 * ({@code S<id>#S#<version written>}, unique without reading, so a lost race never blocks the next spill), then one
 * {@code UpdateItem} drops those ids from the live item and records the session as sliced with that slice as its
 * newest ({@code n.<id>}, as a head's {@code sn}), under the condition that the item is still the version just
 * written. A load reads a sliced session's slices as a window's ({@link SealedSlices}). A crash or a lost race in between leaves ids in both places, never in
 * neither.
 */
final class DynamoDbSessions {

    static final String SPILL_CONDITION = "#ver = :written";
    static final String CLOSED_QUERY = "#pk = :pk AND #sk < :before";
    static final String SLICES_QUERY = "#pk = :pk AND begins_with(#sk, :slices)";
    static final String LATER_QUERY = "#pk = :pk AND #sk BETWEEN :from AND :sessions";
    /**
     * Above every committed session's items ({@code S<digits>#...}) and below the live item ({@code S~}): ':' follows
     * the digits.
     */
    static final String COMMITTED_SESSIONS_END = "S:";

    private final DynamoDbClient dynamo;
    private final String table;
    private final int spillThreshold;
    private final WriteCostListener costs;
    private final SealedSlices sealed;

    DynamoDbSessions(DynamoDbClient dynamo, String table, int spillThreshold, WriteCostListener costs, SealedSlices sealed) {
        this.dynamo = dynamo;
        this.table = table;
        this.spillThreshold = spillThreshold;
        this.costs = costs;
        this.sealed = sealed;
    }

    // ---------------------------------------------------------------- reads

    LiveSessions loadLive(String pipeline, String key) {
        Map<String, AttributeValue> item;
        try {
            item = dynamo.getItem(liveGetRequest(pipeline, key)).item();
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("loadLive", e);
        }
        return live(pipeline, key, item);
    }

    /** The key's live sessions from its live item as read (null or empty: none), with the slices the container lacks. */
    LiveSessions live(String pipeline, String key, Map<String, AttributeValue> item) {
        Map<String, IdLayout> layouts = new HashMap<>();
        if (item != null && !item.isEmpty()) {
            long version = Long.parseLong(item.get(VERSION).n());
            Map<String, Long> ttls = LiveItemCodec.sessionTtls(item);
            for (String windowId : LiveItemCodec.sliced(item)) {
                long newest = LiveItemCodec.newestSlice(item, windowId);
                if (!ttls.containsKey(windowId)) {
                    continue; // committed meanwhile: its slices are its head's now
                }
                layouts.put(windowId, newest < 0
                        ? SealedSlices.legacy(QueryPages.all(dynamo, slicesRequest(pipeline, key, windowId), "loadLive"))
                        : sealed.read(WindowKeys.windowPk(pipeline, key), windowId, version, ttls.get(windowId), newest));
            }
        }
        return LiveItemCodec.read(pipeline, key, item, layouts);
    }

    GetItemRequest liveGetRequest(String pipeline, String key) {
        return GetItemRequest.builder().tableName(table).key(liveKey(pipeline, key)).consistentRead(true).build();
    }

    QueryRequest slicesRequest(String pipeline, String key, String windowId) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(SLICES_QUERY)
                .expressionAttributeNames(Map.of("#pk", PK, "#sk", SK))
                .expressionAttributeValues(Map.of(":pk", s(WindowKeys.windowPk(pipeline, key)),
                        ":slices", s(WindowKeys.windowSkPrefix(windowId) + "S#")))
                .consistentRead(true)
                .build();
    }

    /**
     * The heads of the committed sessions around {@code [fromMillis, toMillis)}
     * ({@link dev.fanin.core.port.WindowStore#closedSessions}), never their slices (the caller reads those as a loaded
     * head's, {@link SealedSlices}): the first item at or after {@code S<toMillis>}, by an ascending query of one item
     * (a head precedes its slices; a live session's slices, which have no head, mean that no committed session there
     * can reach below {@code toMillis}); then the heads below it, latest first, down to the first whose session starts
     * at or before {@code fromMillis}: pages of a descending query, the first small. Descending, a session's slices come
     * before its head, so the first slice met ends the page and the query goes on from that session's head.
     */
    List<Map<String, AttributeValue>> closedHeads(String pipeline, String key, long fromMillis, long toMillis) {
        List<Map<String, AttributeValue>> heads = new ArrayList<>();
        List<Map<String, AttributeValue>> later = DynamoDbCalls.query(dynamo, laterRequest(pipeline, key, toMillis), "closedSessions").items();
        if (!later.isEmpty() && WindowKeys.isHead(later.get(0).get(SK).s())) {
            heads.add(later.get(0));
        }
        String before = WindowRef.sessionId(toMillis);
        QueryRequest request = closedRequest(pipeline, key, before, DynamoDbWindowStore.FIRST_PAGE_ITEMS, null);
        while (request != null) {
            QueryResponse page = DynamoDbCalls.query(dynamo, request, "closedSessions");
            Map<String, AttributeValue> start = DynamoDbCalls.next(page);
            request = start == null ? null : closedRequest(pipeline, key, before, DynamoDbWindowStore.NEXT_PAGE_ITEMS, start);
            for (Map<String, AttributeValue> item : page.items()) {
                String sk = item.get(SK).s();
                if (!WindowKeys.isHead(sk)) {
                    before = WindowKeys.aboveHead(WindowKeys.windowIdOf(sk));
                    request = closedRequest(pipeline, key, before, DynamoDbWindowStore.FIRST_PAGE_ITEMS, null);
                    break;
                }
                heads.add(item);
                if (WindowKeys.sessionStart(sk) <= fromMillis) {
                    return heads;
                }
            }
        }
        return heads;
    }

    /** The first item at or after {@code S<fromMillis>} of the key's committed sessions (never the live item). */
    QueryRequest laterRequest(String pipeline, String key, long fromMillis) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(LATER_QUERY)
                .expressionAttributeNames(Map.of("#pk", PK, "#sk", SK))
                .expressionAttributeValues(Map.of(":pk", s(WindowKeys.windowPk(pipeline, key)), ":from", s(WindowRef.sessionId(fromMillis)),
                        ":sessions", s(COMMITTED_SESSIONS_END)))
                .consistentRead(true)
                .limit(1)
                .build();
    }

    /** The items of the key's partition below {@code before}, latest first. */
    QueryRequest closedRequest(String pipeline, String key, String before, int limit, Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(CLOSED_QUERY)
                .expressionAttributeNames(Map.of("#pk", PK, "#sk", SK))
                .expressionAttributeValues(Map.of(":pk", s(WindowKeys.windowPk(pipeline, key)), ":before", s(before)))
                .scanIndexForward(false)
                .consistentRead(true)
                .limit(limit)
                .exclusiveStartKey(start)
                .build();
    }

    // ---------------------------------------------------------------- writes

    WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        if (!previous.pipeline().equals(next.pipeline()) || !previous.key().equals(next.key())) {
            throw new IllegalArgumentException("live sessions of " + previous.key() + " replaced by those of " + next.key());
        }
        long written = previous.version() + 1;
        Map<String, Set<String>> tails = LiveItemCodec.tails(next);
        Map<String, AttributeValue> item = LiveItemCodec.item(next, written, tails, LiveItemCodec.sliced(next));
        long bytes = DynamoDbItemSize.bytes(item);
        if (bytes > SinkLimits.DYNAMODB_ITEM_BYTES) {
            // DynamoDB would refuse it as invalid; the caller writes fewer events instead.
            return WriteOutcome.rejected(Rejection.TOO_LARGE, 0);
        }
        double sizeBased = DynamoDbItemSize.writeUnits(previousBytes(previous), bytes);
        OptionalDouble units = ConditionalPuts.send(dynamo, livePutRequest(item, previous.version()), "replaceLive", sizeBased, costs);
        if (units.isEmpty()) {
            return WriteOutcome.rejected(Rejection.CONFLICT, sizeBased);
        }
        return WriteOutcome.applied(units.getAsDouble() + spill(next, written, item, tails));
    }

    PutItemRequest livePutRequest(Map<String, AttributeValue> item, long expectedVersion) {
        return ConditionalPuts.write(table, item, expectedVersion);
    }

    private long previousBytes(LiveSessions previous) {
        return previous.version() == 0 ? 0 : DynamoDbItemSize.bytes(LiveItemCodec.item(previous, previous.version(), LiveItemCodec.tails(previous), LiveItemCodec.sliced(previous)));
    }

    /**
     * Moves the tail of every session holding more than the threshold into a slice of its own, then drops those ids
     * from the live item in one update (best effort, as {@link HeadWrites#spill}).
     *
     * @return size-based write units spent
     */
    private double spill(LiveSessions next, long written, Map<String, AttributeValue> item, Map<String, Set<String>> tails) {
        Map<String, Set<String>> sealed = new LinkedHashMap<>();
        double units = 0;
        double reported = 0;
        for (StoredWindow w : next.sessions()) {
            Set<String> tail = tails.get(w.ref().windowId());
            if (tail.size() <= spillThreshold) {
                continue;
            }
            Map<String, AttributeValue> slice = WindowItemCodec.slice(w.ref(), written, tail, w.expiresAt());
            units += DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(slice));
            try {
                reported += DynamoDbCalls.reported(dynamo.putItem(ConditionalPuts.create(table, slice)).consumedCapacity());
                sealed.put(w.ref().windowId(), tail);
            } catch (SdkException e) {
                quietlyIfTransient(e);
            }
        }
        if (!sealed.isEmpty()) {
            units += DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(item));
            try {
                reported += DynamoDbCalls.reported(dynamo.updateItem(spillRequest(next, written, sealed)).consumedCapacity());
            } catch (SdkException e) {
                quietlyIfTransient(e);
            }
        }
        if (units > 0) {
            costs.onWrite("spill", reported, units);
        }
        return units;
    }

    /**
     * {@code DELETE #t0 :t0, #t1 :t1 ... ADD #sl :sl SET #n0 = :written, ...} (the newest slice of each spilled
     * session, but of one sliced before bounded loads), conditional on the version just written.
     */
    UpdateItemRequest spillRequest(LiveSessions next, long written, Map<String, Set<String>> sealed) {
        Map<String, String> names = new HashMap<>(Map.of("#ver", VERSION, "#sl", LiveItemCodec.SLICED));
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":written", n(written),
                ":sl", AttributeValue.fromSs(List.copyOf(sealed.keySet()))));
        Set<String> legacy = new java.util.HashSet<>();
        next.sessions().stream().filter(w -> IdLayout.of(w.layout()).legacy()).forEach(w -> legacy.add(w.ref().windowId()));
        List<String> deletes = new ArrayList<>();
        List<String> newest = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, Set<String>> tail : sealed.entrySet()) {
            names.put("#t" + i, LiveItemCodec.tailAttribute(tail.getKey()));
            values.put(":t" + i, AttributeValue.fromSs(List.copyOf(tail.getValue())));
            deletes.add("#t" + i + " :t" + i);
            if (!legacy.contains(tail.getKey())) {
                names.put("#n" + i, LiveItemCodec.newestAttribute(tail.getKey()));
                newest.add("#n" + i + " = :written");
            }
            i++;
        }
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(liveKey(next.pipeline(), next.key()))
                .updateExpression("DELETE " + String.join(", ", deletes) + " ADD #sl :sl"
                        + (newest.isEmpty() ? "" : " SET " + String.join(", ", newest)))
                .conditionExpression(SPILL_CONDITION)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** A lost race (the slice number taken, the item moved on) or a transient failure ends a spill quietly. */
    private static void quietlyIfTransient(SdkException failure) {
        if (!(failure instanceof ConditionalCheckFailedException) && !DynamoDbFailures.isTransient(failure)) {
            throw failure;
        }
    }

    static Map<String, AttributeValue> liveKey(String pipeline, String key) {
        return Map.of(PK, s(WindowKeys.windowPk(pipeline, key)), SK, s(LiveItemCodec.LIVE_SK));
    }
}
