package dev.fanin.aws.dynamodb;

import dev.fanin.aws.Batches;
import dev.fanin.aws.PartialBatchRetry;
import dev.fanin.aws.PartialBatchRetry.EntryOutcome;
import dev.fanin.aws.RetryPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * Strongly consistent {@code BatchGetItem} of any number of items of the table: {@link DynamoDbWindowStore#MAX_BATCH_GET} keys a call, and
 * the keys DynamoDB leaves unprocessed (a response past 16 MB, a throttled partition) asked again per the retry
 * policy, with its backoff. Each item is billed as a {@code GetItem} of it would be, so reading together costs no
 * read unit more; it saves the round trips.
 */
final class BatchGets {

    private final DynamoDbClient dynamo;
    private final String table;
    private final RetryPolicy retry;

    BatchGets(DynamoDbClient dynamo, String table, RetryPolicy retry) {
        this.dynamo = dynamo;
        this.table = table;
        this.retry = retry;
    }

    /** The primary key of an item of the table. */
    record ItemKey(String pk, String sk) {

        static ItemKey of(Map<String, AttributeValue> key) {
            return new ItemKey(key.get(WindowItemCodec.PK).s(), key.get(WindowItemCodec.SK).s());
        }

        Map<String, AttributeValue> attributes() {
            return Map.of(WindowItemCodec.PK, WindowItemCodec.s(pk), WindowItemCodec.SK, WindowItemCodec.s(sk));
        }
    }

    /**
     * @return every key read, with its item (empty when there is none); a key still unprocessed after the last call is
     *         left out, for the caller to read on its own
     */
    Map<ItemKey, Map<String, AttributeValue>> read(List<ItemKey> keys, String operation) {
        List<ItemKey> distinct = List.copyOf(new LinkedHashSet<>(keys));
        Map<ItemKey, Map<String, AttributeValue>> read = new HashMap<>();
        PartialBatchRetry.outcomes(distinct.size(), Map.of(), pending -> Batches.of(pending, DynamoDbWindowStore.MAX_BATCH_GET, Long.MAX_VALUE, i -> 0),
                batch -> send(batch, distinct, read, operation), retry);
        return read;
    }

    BatchGetItemRequest request(List<ItemKey> keys) {
        return BatchGetItemRequest.builder()
                .requestItems(Map.of(table, KeysAndAttributes.builder().keys(keys.stream().map(ItemKey::attributes).toList())
                        .consistentRead(true).build()))
                .build();
    }

    private List<EntryOutcome> send(List<Integer> batch, List<ItemKey> keys, Map<ItemKey, Map<String, AttributeValue>> read, String operation) {
        BatchGetItemResponse response;
        try {
            response = dynamo.batchGetItem(request(batch.stream().map(keys::get).toList()));
        } catch (SdkException e) {
            throw DynamoDbFailures.translate(operation, e);
        }
        Map<ItemKey, Map<String, AttributeValue>> found = new HashMap<>();
        for (Map<String, AttributeValue> item : response.responses().getOrDefault(table, List.of())) {
            found.put(ItemKey.of(item), item);
        }
        Set<ItemKey> unprocessed = new HashSet<>();
        if (response.hasUnprocessedKeys() && response.unprocessedKeys().containsKey(table)) {
            response.unprocessedKeys().get(table).keys().forEach(k -> unprocessed.add(ItemKey.of(k)));
        }
        List<EntryOutcome> outcomes = new ArrayList<>();
        for (int i : batch) {
            ItemKey key = keys.get(i);
            if (unprocessed.contains(key)) {
                outcomes.add(EntryOutcome.failed("unprocessed", true));
            } else {
                read.put(key, found.getOrDefault(key, Map.of()));
                outcomes.add(EntryOutcome.SENT);
            }
        }
        return outcomes;
    }
}
