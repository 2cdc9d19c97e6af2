package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.IDS;
import static dev.fanin.aws.dynamodb.WindowItemCodec.VERSION;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;

import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.port.WriteOutcome.Rejection;
import dev.fanin.core.window.WindowRef;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The writes of a window's head (a time window, or a session once committed) and the spill of its id tail.
 *
 * <p>Invariants: every head write is one conditional {@code PutItem} ({@link ConditionalPuts}) storing
 * {@code ver = previous + 1}; every committed event id is on the head or in a sealed slice numbered at most the head's
 * {@code sn}, at every instant ({@link #spill}), so a load reads the head and only the slices its container does not
 * hold ({@link SealedSlices}).
 */
final class HeadWrites {

    static final String SPILL_HEAD_UPDATE = "DELETE #ids :spilled SET #sn = :written";
    static final String LEGACY_SPILL_HEAD_UPDATE = "DELETE #ids :spilled";
    static final String LEGACY_SPILL_HEAD_CONDITION = "#ver = :written";
    /**
     * A head spills only at a version above its {@code sn}, and its update never lowers {@code sn}. A session's head may
     * be written at a version at or below a slice its live item sealed meanwhile (a commit that lost races writes it
     * at its own next versions, while the live item's versions, which number its slices, went on): a spill there would
     * set a lower {@code sn}, hiding that slice from every load, or, refused, leave a slice below {@code sn} that a
     * container which has read the window past that number never reads, while a later writer that reads it drops its
     * ids from the head. Such a head keeps its tail until its versions pass {@code sn}: the few live writes its
     * commit lost to.
     */
    static final String SPILL_HEAD_CONDITION = "#ver = :written AND (attribute_not_exists(#sn) OR #sn < :written)";

    private final DynamoDbClient dynamo;
    private final String table;
    private final int spillThreshold;
    private final WriteCostListener costs;

    HeadWrites(DynamoDbClient dynamo, String table, int spillThreshold, WriteCostListener costs) {
        this.dynamo = dynamo;
        this.table = table;
        this.spillThreshold = spillThreshold;
        this.costs = costs;
    }

    WriteOutcome create(StoredWindow window) {
        IdLayout layout = IdLayout.of(window.layout());
        Set<String> headIds = headIds(window, layout);
        long written = window.version() + 1;
        Map<String, AttributeValue> head = WindowItemCodec.head(window, written, headIds, layout);
        double sizeBased = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(head));
        OptionalDouble units = ConditionalPuts.send(dynamo, createPutRequest(head), "create", sizeBased, costs);
        if (units.isEmpty()) {
            return WriteOutcome.rejected(Rejection.CONFLICT, sizeBased);
        }
        return WriteOutcome.applied(units.getAsDouble() + spill(window, written, headIds, layout));
    }

    PutItemRequest createPutRequest(Map<String, AttributeValue> head) {
        return ConditionalPuts.create(table, head);
    }

    WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        if (!previous.ref().equals(next.ref())) {
            throw new IllegalArgumentException("cannot replace window " + previous.ref() + " by " + next.ref());
        }
        IdLayout layout = IdLayout.of(previous.layout());
        Set<String> headIds = headIds(next, layout);
        long written = previous.version() + 1;
        Map<String, AttributeValue> head = WindowItemCodec.head(next, written, headIds, layout);
        double sizeBased = DynamoDbItemSize.writeUnits(previousHeadBytes(previous, layout), DynamoDbItemSize.bytes(head));
        OptionalDouble units = ConditionalPuts.send(dynamo, replacePutRequest(head, previous.version()), "replace", sizeBased, costs);
        if (units.isEmpty()) {
            return WriteOutcome.rejected(Rejection.CONFLICT, sizeBased);
        }
        return WriteOutcome.applied(units.getAsDouble() + spill(next, written, headIds, layout));
    }

    PutItemRequest replacePutRequest(Map<String, AttributeValue> head, long expectedVersion) {
        return ConditionalPuts.replace(table, head, expectedVersion);
    }

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
        if (headIds.size() <= spillThreshold || writtenVersion <= layout.newestSlice()) {
            // (A head written at a version at or below its sn keeps its tail: see SPILL_HEAD_CONDITION.)
            return 0;
        }
        Map<String, AttributeValue> slice = WindowItemCodec.slice(window.ref(), writtenVersion, headIds, window.expiresAt());
        double sliceUnits = DynamoDbItemSize.writeUnits(0, DynamoDbItemSize.bytes(slice));
        double reported;
        try {
            reported = DynamoDbCalls.reported(dynamo.putItem(slicePutRequest(slice)).consumedCapacity());
        } catch (ConditionalCheckFailedException sliceTaken) {
            return sliceUnits;
        } catch (SdkException e) {
            return quietlyIfTransient(e, sliceUnits);
        }
        double units = sliceUnits + DynamoDbItemSize.writeUnits(0,
                DynamoDbItemSize.bytes(WindowItemCodec.head(window, writtenVersion, headIds, layout)));
        try {
            reported += DynamoDbCalls.reported(dynamo.updateItem(
                    spillHeadRequest(window.ref(), writtenVersion, headIds, layout.legacy())).consumedCapacity());
        } catch (ConditionalCheckFailedException movedOn) {
            // Another writer has moved the head on (it spills what is still there), or the head's sn is past this slice.
        } catch (SdkException e) {
            return quietlyIfTransient(e, units);
        }
        costs.onWrite("spill", reported, units);
        return units;
    }

    /** A sealed slice is created once: its number is unique (a window's or a live item's version). */
    PutItemRequest slicePutRequest(Map<String, AttributeValue> slice) {
        return ConditionalPuts.create(table, slice);
    }

    /** @param legacy the window is stored as before bounded loads: its head gets no {@code sn} */
    UpdateItemRequest spillHeadRequest(WindowRef ref, long writtenVersion, Set<String> spilled, boolean legacy) {
        Map<String, String> names = new HashMap<>(Map.of("#ids", IDS, "#ver", VERSION));
        if (!legacy) {
            names.put("#sn", WindowItemCodec.NEWEST_SLICE);
        }
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(WindowItemCodec.headKey(ref))
                .updateExpression(legacy ? LEGACY_SPILL_HEAD_UPDATE : SPILL_HEAD_UPDATE)
                .conditionExpression(legacy ? LEGACY_SPILL_HEAD_CONDITION : SPILL_HEAD_CONDITION)
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

    private static Set<String> headIds(StoredWindow window, IdLayout layout) {
        Set<String> ids = new HashSet<>(window.eventIds());
        ids.removeAll(layout.sealedIds());
        return ids;
    }

    private static long previousHeadBytes(StoredWindow previous, IdLayout layout) {
        return DynamoDbItemSize.bytes(WindowItemCodec.head(previous, previous.version(), headIds(previous, layout), layout));
    }
}
