package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * A window's sealed ids for a load that has read its head (a window head, or a live session's entry in its key's live
 * item): the ids the container's {@link SliceCache} holds, plus the slices numbered after what it holds up to the
 * head's newest slice {@code sn}, read with one strongly consistent {@code Query} of that sort-key range (slice
 * numbers are zero-padded, so they sort). So a load reads the head and the slices sealed since the container last saw
 * the window, never the slices it holds (docs/ARCHITECTURE.md, "Bounded loads").
 *
 * <p>The head is read first, and then the slices: a spill writes its slice before it drops those ids from the head, so
 * an id missing from the head read is in a slice that existed before the query.
 */
final class SealedSlices {

    static final String RANGE_QUERY = "#pk = :pk AND #sk BETWEEN :from AND :to";

    private final DynamoDbClient dynamo;
    private final String table;
    private final SliceCache cache;

    SealedSlices(DynamoDbClient dynamo, String table, SliceCache cache) {
        this.dynamo = dynamo;
        this.table = table;
        this.cache = cache;
    }

    /**
     * @param version the head's version (a live session's: its live item's)
     * @param ttl     the head's TTL, epoch seconds
     * @param newest  the head's {@code sn}: every id not on the head is in a slice numbered at most this
     */
    IdLayout read(String pk, String windowId, long version, long ttl, long newest) {
        String window = SliceCache.windowKey(pk, windowId);
        SliceCache.Known known = cache.known(window, version, ttl);
        long through = known == null ? 0 : known.through();
        if (newest <= through) {
            if (known == null) {
                return IdLayout.EMPTY;
            }
            cache.remember(window, new SliceCache.Known(version, ttl, through, known.ids()));
            return new IdLayout(known.ids(), through, false);
        }
        Set<String> ids = new HashSet<>(known == null ? Set.of() : known.ids());
        for (Map<String, AttributeValue> slice : QueryPages.all(dynamo, rangeRequest(pk, windowId, through + 1, newest), "load")) {
            ids.addAll(WindowItemCodec.ids(slice));
        }
        SliceCache.Known now = new SliceCache.Known(version, ttl, newest, ids);
        cache.remember(window, now);
        return new IdLayout(now.ids(), newest, false);
    }

    QueryRequest rangeRequest(String pk, String windowId, long from, long to) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(RANGE_QUERY)
                .expressionAttributeNames(Map.of("#pk", PK, "#sk", SK))
                .expressionAttributeValues(Map.of(":pk", s(pk), ":from", s(WindowKeys.sliceSk(windowId, from)),
                        ":to", s(WindowKeys.sliceSk(windowId, to))))
                .consistentRead(true)
                .build();
    }

    /** The layout of a window stored before bounded loads, from every one of its slice items (in any order). */
    static IdLayout legacy(List<Map<String, AttributeValue>> slices) {
        Set<String> sealed = new HashSet<>();
        long newest = 0;
        for (Map<String, AttributeValue> slice : slices) {
            sealed.addAll(WindowItemCodec.ids(slice));
            newest = Math.max(newest, WindowKeys.sliceOf(slice.get(SK).s()));
        }
        return new IdLayout(sealed, newest, true);
    }
}
