package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.RetryPolicy;
import dev.fanin.testkit.CountingDynamoDb;
import dev.fanin.aws.support.FreshTable;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * An ingest batch's reads up front on the local endpoint: {@code loadAll} and {@code loadLiveAll} read what {@code load}
 * and {@code loadLive} read, ids in slices included, in strongly consistent {@code BatchGetItem} calls of up to 100
 * keys; keys DynamoDB leaves unprocessed are asked again, and a key still unprocessed after the retry policy is left
 * for the caller to read on its own.
 */
class BatchLoadTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    @RegisterExtension
    static final FreshTable TABLE = new FreshTable("batch-loads");
    private final Map<String, Long> calls = new TreeMap<>();
    private final List<BatchGetItemRequest> batchGets = new ArrayList<>();

    @Test
    void liveItemsOfMoreKeysThanOneCallTakesReadAsEachAloneWouldInTwoCalls() {
        DynamoDbWindowStore writer = store(BatchLoadTest::everyKey);
        List<String> keys = IntStream.range(0, 150).mapToObj(i -> "key-" + i).toList();
        for (int i = 0; i < 150; i += 3) {
            writeSession(writer, keys.get(i), i == 0 ? 300 : 2);
        }
        DynamoDbWindowStore store = store(BatchLoadTest::everyKey);
        calls.clear();

        Map<String, LiveSessions> together = store.loadLiveAll("alerts", keys);

        assertThat(calls).as("a cold container: every live item, and the slices of the one session that has some")
                .isEqualTo(Map.of("BatchGetItem", 2L, "Query", 1L));
        assertThat(batchGets).allSatisfy(r -> assertThat(r.requestItems().get(TABLE.name()).consistentRead()).isTrue());
        assertThat(together.keySet()).containsExactlyElementsOf(keys);
        DynamoDbWindowStore cold = store(BatchLoadTest::everyKey);
        for (String key : keys) {
            assertThat(together.get(key)).isEqualTo(cold.loadLive("alerts", key));
        }
        assertThat(together.get("key-0").sessions().get(0).eventIds()).as("with the ids of its slices").hasSize(300);
        assertThat(together.get("key-1").version()).as("a key with nothing stored").isZero();
    }

    @Test
    void headsReadTogetherAreTheHeadsReadAloneAndAnAbsentOneIsEmpty() {
        DynamoDbWindowStore writer = store(BatchLoadTest::everyKey);
        List<WindowRef> refs = List.of(window("a", 1), window("b", 1), window("a", 2));
        assertThat(writer.create(open(refs.get(0), 100)).applied()).isTrue();
        assertThat(writer.create(open(refs.get(2), 3)).applied()).isTrue();
        DynamoDbWindowStore store = store(BatchLoadTest::everyKey);
        calls.clear();

        Map<WindowRef, Optional<StoredWindow>> together = store.loadAll(refs);

        assertThat(calls).as("a cold container: every head, and the slices of the window that has some")
                .isEqualTo(Map.of("BatchGetItem", 1L, "Query", 1L));
        assertThat(together.get(refs.get(0)).orElseThrow().eventIds()).hasSize(100);
        assertThat(together.get(refs.get(1))).isEmpty();
        for (WindowRef ref : refs) {
            assertThat(together.get(ref)).isEqualTo(store(BatchLoadTest::everyKey).load(ref));
        }
    }

    @Test
    void keysLeftUnprocessedAreAskedAgainAndOnesNeverProcessedAreLeftToTheCaller() {
        List<String> keys = List.of("k1", "k2", "k3");
        keys.forEach(k -> writeSession(store(BatchLoadTest::everyKey), k, 1));
        // DynamoDB answers part of a call and returns the rest as unprocessed (throttling, 16 MB): here k2 at the first
        // call, and k3 at every call.
        int[] call = {0};
        DynamoDbWindowStore store = store(request -> {
            call[0]++;
            List<Map<String, AttributeValue>> asked = request.requestItems().get(TABLE.name()).keys();
            return asked.stream().filter(k -> !k.get("pk").s().endsWith("k3") && !(call[0] == 1 && k.get("pk").s().endsWith("k2"))).toList();
        });
        calls.clear();

        Map<String, LiveSessions> together = store.loadLiveAll("alerts", keys);

        assertThat(together.keySet()).containsExactlyInAnyOrder("k1", "k2");
        assertThat(together.get("k2").sessions()).hasSize(1);
        assertThat(calls.get("BatchGetItem")).as("the retry policy's three calls").isEqualTo(3L);
    }

    private void writeSession(DynamoDbWindowStore store, String key, int ids) {
        WindowRef ref = new WindowRef("alerts", key, "S000000000001000");
        Set<String> eventIds = new HashSet<>();
        IntStream.range(0, ids).forEach(i -> eventIds.add(String.format("%016d", i)));
        StoredWindow session = new StoredWindow(ref, 0, WindowStatus.OPEN, null, T0.plusSeconds(3600), 0, null, eventIds, "{}", null);
        LiveSessions none = store.loadLive("alerts", key);
        assertThat(store.replaceLive(none, new LiveSessions("alerts", key, 0, List.of(session), null, T0.plusSeconds(3600))).applied()).isTrue();
    }

    private static WindowRef window(String key, int minute) {
        return new WindowRef("rollup", key, WindowRef.timeWindowId(T0.plusSeconds(60L * minute).toEpochMilli()));
    }

    private static StoredWindow open(WindowRef ref, int ids) {
        Set<String> eventIds = new HashSet<>();
        IntStream.range(0, ids).forEach(i -> eventIds.add(String.format("%016d", i)));
        return new StoredWindow(ref, 0, WindowStatus.OPEN, null, T0.plusSeconds(3600), 0, null, eventIds, "{}", null);
    }

    /**
     * A store over a client that counts its calls, records its {@code BatchGetItem} requests, and answers each of them
     * for the keys {@code processed} keeps only, returning the others as unprocessed.
     */
    private DynamoDbWindowStore store(Function<BatchGetItemRequest, List<Map<String, AttributeValue>>> processed) {
        DynamoDbClient client = CountingDynamoDb.over(TABLE.client(), calls, (method, args) -> {
            if (method.getName().equals("batchGetItem") && args[0] instanceof BatchGetItemRequest request) {
                batchGets.add(request);
                return partly(request, processed.apply(request));
            }
            return null;
        });
        return new DynamoDbWindowStore(client, TABLE.name(), DynamoDbWindowStore.Settings.defaults(), WriteCostListener.NONE,
                new RetryPolicy(3, Duration.ZERO, d -> { }), new SliceCache(SliceCache.DEFAULT_BYTES));
    }

    private static List<Map<String, AttributeValue>> everyKey(BatchGetItemRequest request) {
        return request.requestItems().get(TABLE.name()).keys();
    }

    /** The endpoint's answer for {@code processed}, with the request's other keys returned as unprocessed. */
    private static BatchGetItemResponse partly(BatchGetItemRequest request, List<Map<String, AttributeValue>> processed) {
        KeysAndAttributes asked = request.requestItems().get(TABLE.name());
        List<Map<String, AttributeValue>> left = asked.keys().stream().filter(k -> !processed.contains(k)).toList();
        BatchGetItemResponse answered = processed.isEmpty() ? BatchGetItemResponse.builder().responses(Map.of(TABLE.name(), List.of())).build()
                : TABLE.client().batchGetItem(request.toBuilder().requestItems(Map.of(TABLE.name(), asked.toBuilder().keys(processed).build())).build());
        return left.isEmpty() ? answered : answered.toBuilder()
                .unprocessedKeys(Map.of(TABLE.name(), asked.toBuilder().keys(left).build())).build();
    }
}
