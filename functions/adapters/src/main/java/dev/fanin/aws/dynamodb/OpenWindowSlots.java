package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The open-window slots of each pipeline, on one counter item ({@code pk = C#<pipeline>}, {@code sk = slots}):
 * {@code open} is the total held and {@code e<epoch>} the part held by windows created in each admission epoch.
 * Every change updates both in one {@code UpdateItem}: a reservation is conditional on the total staying within the
 * bound, a release on its epoch still being there (a retired epoch's slots were returned already), a retirement on
 * the epoch's count being the one read. One item takes about 1,000 updates a second, and the core reserves and
 * returns slots once per batch, not per window.
 *
 * <p>Only a reservation that did not fit reads the item strongly: what it asks for next is the bound's business. The
 * sweeper's reads (the count it reports, the epochs it retires) are eventually consistent, for half the read units: a
 * count a moment old is still a gauge, and a retirement built on an old count is refused by its condition and tried
 * again the next run.
 */
final class OpenWindowSlots {

    static final String SLOTS_UPDATE = "ADD #open :n, #epoch :n";
    static final String RESERVE_CONDITION = "attribute_not_exists(#open) OR #open <= :room";
    static final String RELEASE_CONDITION = "attribute_exists(#epoch)";
    static final String RETIRE_UPDATE = "ADD #open :n REMOVE #epoch";
    static final String RETIRE_CONDITION = "#epoch = :held";
    static final String SLOTS_SK = "slots";
    static final String EPOCH_PREFIX = "e";
    static final String OPEN = "open";

    private final DynamoDbClient dynamo;
    private final String table;
    private final WriteCostListener costs;

    OpenWindowSlots(DynamoDbClient dynamo, String table, WriteCostListener costs) {
        this.dynamo = dynamo;
        this.table = table;
        this.costs = costs;
    }

    long open(String pipeline) {
        return held(slotsItem(pipeline, false));
    }

    private static long held(Map<String, AttributeValue> item) {
        AttributeValue open = item.get(OPEN);
        return open == null ? 0 : Long.parseLong(open.n());
    }

    int reserve(String pipeline, long epoch, int wanted, int maxOpenWindows) {
        if (wanted < 1 || maxOpenWindows < 1) {
            throw new IllegalArgumentException("wanted and maxOpenWindows must be at least 1, were " + wanted + " and " + maxOpenWindows);
        }
        int ask = Math.min(wanted, maxOpenWindows);
        if (tryReserve(pipeline, epoch, ask, maxOpenWindows)) {
            return ask;
        }
        // Not all of it fits: take what is left, if anything, in one more conditional update.
        long held = held(slotsItem(pipeline, true));
        int room = (int) Math.min(ask - 1, Math.max(0, maxOpenWindows - held));
        return room > 0 && tryReserve(pipeline, epoch, room, maxOpenWindows) ? room : 0;
    }

    private boolean tryReserve(String pipeline, long epoch, int n, int maxOpenWindows) {
        return update("reserveSlots", reserveRequest(pipeline, epoch, n, maxOpenWindows));
    }

    UpdateItemRequest reserveRequest(String pipeline, long epoch, int n, int maxOpenWindows) {
        return slotsRequest(pipeline, epoch, SLOTS_UPDATE, RESERVE_CONDITION, Map.of(":n", n(n), ":room", n((long) maxOpenWindows - n)));
    }

    void release(String pipeline, long epoch, int count) {
        if (count >= 1) {
            // A refused condition means the epoch has retired: its slots came back then.
            update("releaseSlots", releaseRequest(pipeline, epoch, count));
        }
    }

    UpdateItemRequest releaseRequest(String pipeline, long epoch, int count) {
        return slotsRequest(pipeline, epoch, SLOTS_UPDATE, RELEASE_CONDITION, Map.of(":n", n(-(long) count)));
    }

    long retire(String pipeline, long before) {
        long returned = 0;
        for (Map.Entry<String, AttributeValue> attribute : slotsItem(pipeline, false).entrySet()) {
            Long epoch = epochOf(attribute.getKey());
            if (epoch == null || epoch >= before) {
                continue;
            }
            long held = Long.parseLong(attribute.getValue().n());
            // A refused condition means a late release landed in between: the next sweep retires the epoch.
            if (update("retireEpochs", retireRequest(pipeline, epoch, held))) {
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
    private boolean update(String operation, UpdateItemRequest request) {
        try {
            UpdateItemResponse response = dynamo.updateItem(request);
            costs.onWrite(operation, DynamoDbCalls.reported(response.consumedCapacity()), 1);
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

    private Map<String, AttributeValue> slotsItem(String pipeline, boolean consistent) {
        try {
            GetItemResponse response = dynamo.getItem(slotsGetRequest(pipeline, consistent));
            return response.hasItem() ? response.item() : Map.of();
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("openWindows", e);
        }
    }

    private GetItemRequest slotsGetRequest(String pipeline, boolean consistent) {
        return GetItemRequest.builder().tableName(table).key(slotsKey(pipeline)).consistentRead(consistent).build();
    }

    private static Map<String, AttributeValue> slotsKey(String pipeline) {
        return Map.of(PK, s(WindowKeys.counterPk(pipeline)), SK, s(SLOTS_SK));
    }
}
