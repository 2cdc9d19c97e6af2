package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.aws.RetryPolicy;
import dev.fanin.aws.support.MotoServer;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WindowStore.DueBucket;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** BatchWriteItem's unprocessed deletes, against moto with a client that holds back a delete as throttling does. */
class DueBucketDeletesTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final List<Integer> callSizes = new ArrayList<>();
    private final List<Duration> sleeps = new ArrayList<>();

    @Test
    void aDeleteLeftUnprocessedIsSentAgainAfterABackoffAndEveryBucketGoes() {
        try (DynamoDbClient dynamo = MotoServer.get().dynamoDb(new HoldsBackFirstDelete(1))) {
            DynamoDbWindowStore store = store(dynamo);
            List<DueBucket> due = addDue(store, 30);

            store.removeDue(due);

            assertThat(store.due("alerts", 0, T0.plusSeconds(60), 100, null).buckets()).isEmpty();
            assertThat(callSizes).as("25 + 5 deletes, then the one held back").containsExactly(25, 5, 1);
            assertThat(sleeps).containsExactly(Duration.ofMillis(100));
        }
    }

    @Test
    void aDeleteStillUnprocessedAfterTheLastAttemptFailsTheCallAndStaysListed() {
        try (DynamoDbClient dynamo = MotoServer.get().dynamoDb(new HoldsBackFirstDelete(Integer.MAX_VALUE))) {
            DynamoDbWindowStore store = store(dynamo);
            List<DueBucket> due = addDue(store, 3);

            assertThatThrownBy(() -> store.removeDue(due)).isInstanceOf(StoreUnavailableException.class)
                    .hasMessage("removeDue: 1 deletes left unprocessed after 3 calls");

            assertThat(store.due("alerts", 0, T0.plusSeconds(60), 100, null).buckets()).containsExactly(due.get(0));
            assertThat(callSizes).containsExactly(3, 1, 1);
            assertThat(sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
        }
    }

    private DynamoDbWindowStore store(DynamoDbClient dynamo) {
        String table = "windows-" + UUID.randomUUID();
        dynamo.createTable(WindowTableSchema.createTableRequest(table));
        return new DynamoDbWindowStore(dynamo, table, new DynamoDbWindowStore.Settings(1, 32), WriteCostListener.NONE,
                new RetryPolicy(3, Duration.ofMillis(100), sleeps::add));
    }

    private static List<DueBucket> addDue(DynamoDbWindowStore store, int windows) {
        for (int i = 0; i < windows; i++) {
            store.addDue("alerts", T0.plusSeconds(i), List.of(new WindowRef("alerts", "k" + i, "T1")), T0.plusSeconds(3600));
        }
        List<DueBucket> due = store.due("alerts", 0, T0.plusSeconds(60), 100, null).buckets();
        assertThat(due).hasSize(windows);
        return due;
    }

    /**
     * For its first {@code calls} BatchWriteItem calls, keeps the first delete from reaching the table and returns it
     * as unprocessed, as DynamoDB does for a throttled partition; records every call's size.
     */
    private final class HoldsBackFirstDelete implements ExecutionInterceptor {
        private int calls;
        private String table;
        private WriteRequest heldBack;

        HoldsBackFirstDelete(int calls) {
            this.calls = calls;
        }

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            if (!(context.request() instanceof BatchWriteItemRequest request)) {
                return context.request();
            }
            table = request.requestItems().keySet().iterator().next();
            List<WriteRequest> writes = request.requestItems().get(table);
            callSizes.add(writes.size());
            heldBack = calls-- > 0 ? writes.get(0) : null;
            if (heldBack == null) {
                return request;
            }
            // A call needs one request at least: a lone held-back delete becomes the delete of a key that is not there.
            List<WriteRequest> rest = writes.size() > 1 ? writes.subList(1, writes.size()) : List.of(WriteRequest.builder()
                    .deleteRequest(d -> d.key(Map.of("pk", AttributeValue.fromS("absent"), "sk", AttributeValue.fromS("absent")))).build());
            return request.toBuilder().requestItems(Map.of(table, rest)).build();
        }

        @Override
        public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
            if (!(context.response() instanceof BatchWriteItemResponse response) || heldBack == null) {
                return context.response();
            }
            return response.toBuilder().unprocessedItems(Map.of(table, List.of(heldBack))).build();
        }
    }
}
