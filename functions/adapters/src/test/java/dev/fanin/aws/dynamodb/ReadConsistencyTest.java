package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.MotoServer;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Which reads are strongly consistent, by the calls the store sends to moto: every read a decision rests on (window
 * loads, a reservation that did not fit); eventually consistent only where a stale answer costs a visit or a retry (the
 * sweeper's due-bucket pages, its slot count and retirements).
 */
class ReadConsistencyTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final List<String> reads = new ArrayList<>();

    @Test
    void decisionsReadStronglyAndTheSweepersListingsEventually() {
        try (DynamoDbClient dynamo = MotoServer.get().dynamoDb(new RecordsReads())) {
            String table = "windows-" + UUID.randomUUID();
            dynamo.createTable(WindowTableSchema.createTableRequest(table));
            DynamoDbWindowStore store = new DynamoDbWindowStore(dynamo, table, new DynamoDbWindowStore.Settings(1, 32));
            WindowRef ref = new WindowRef("alerts", "k", "T000000000001000");
            store.create(new StoredWindow(ref, 0, WindowStatus.OPEN, T0.plusSeconds(60), T0.plusSeconds(3600), 0, null,
                    Set.of("e1"), "{\"n\":1}", null));
            store.addDue("alerts", T0, List.of(ref), T0.plusSeconds(3600));
            assertThat(store.reserveSlots("alerts", 7, 2, 2)).isEqualTo(2);

            reads.clear();
            store.load(ref);
            store.loadLive("alerts", "k");
            assertThat(store.reserveSlots("alerts", 7, 2, 3)).as("one slot left of the bound").isEqualTo(1);
            assertThat(reads).as("loads, and the read after a reservation that did not fit")
                    .containsExactly("GetItem strong", "GetItem strong", "GetItem strong");

            reads.clear();
            assertThat(store.due("alerts", 0, T0.plusSeconds(1), 10, null).buckets()).hasSize(1);
            assertThat(store.openWindows("alerts")).isEqualTo(3);
            store.retireEpochs("alerts", 8);
            assertThat(reads).as("the sweeper's listing, count and retirement")
                    .containsExactly("Query eventual", "GetItem eventual", "GetItem eventual");
            assertThat(store.openWindows("alerts")).as("epoch 7 retired").isZero();
        }
    }

    /** Records each read's operation and whether it asked for a strongly consistent answer. */
    private final class RecordsReads implements ExecutionInterceptor {
        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            SdkRequest request = context.request();
            if (request instanceof GetItemRequest get) {
                reads.add("GetItem " + consistency(get.consistentRead()));
            } else if (request instanceof QueryRequest query) {
                reads.add("Query " + consistency(query.consistentRead()));
            }
        }

        private static String consistency(Boolean consistent) {
            return Boolean.TRUE.equals(consistent) ? "strong" : "eventual";
        }
    }
}
