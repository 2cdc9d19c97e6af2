package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.testkit.CountingDynamoDb;
import dev.fanin.aws.support.FreshTable;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Bounded loads on the local endpoint (docs/ARCHITECTURE.md, "Bounded loads"): a load reads the head and the slices its
 * container does not hold, and every id of the window, in whatever container, after whatever crash.
 */
class BoundedLoadTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String KEY = "acct#1|eu-west-1|svc";
    private static final WindowRef REF = new WindowRef("alerts", KEY, "T000000000001000");
    @RegisterExtension
    static final FreshTable TABLE = new FreshTable("windows");
    private final Map<String, Long> calls = new TreeMap<>();
    /** Items the counted clients' queries returned. */
    private final long[] itemsRead = {0};

    @Test
    void aWindowSpilledManyTimesLoadsTheSameIdsColdAndWarm() {
        DynamoDbWindowStore warm = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false);
        Set<String> all = grow(List.of(warm), 20);
        assertThat(warm.load(REF).orElseThrow().eventIds()).as("with the slice its last write sealed").isEqualTo(all);
        calls.clear();

        assertThat(warm.load(REF).orElseThrow().eventIds()).isEqualTo(all);
        assertThat(warm.load(REF).orElseThrow().eventIds()).isEqualTo(all);
        assertThat(calls).as("the container holds every slice: the head alone, twice").isEqualTo(Map.of("GetItem", 2L));

        calls.clear();
        DynamoDbWindowStore cold = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false);
        assertThat(cold.load(REF).orElseThrow().eventIds()).isEqualTo(all);
        assertThat(calls).as("a cold container reads the head and every slice once").isEqualTo(Map.of("GetItem", 1L, "Query", 1L));
        assertThat(((IdLayout) cold.load(REF).orElseThrow().layout()).newestSlice()).as("the slice of the 20th write").isEqualTo(20);
        assertThat(calls).isEqualTo(Map.of("GetItem", 2L, "Query", 1L));
    }

    @Test
    void aSliceWrittenByAnotherContainerIsRead() {
        DynamoDbWindowStore a = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false);
        DynamoDbWindowStore b = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false);
        // grow() loads before each write, in turn in each container, and checks every load against every id so far.
        Set<String> all = grow(List.of(a, b, a, a, b), 25);

        assertThat(a.load(REF).orElseThrow().eventIds()).isEqualTo(all);
        assertThat(b.load(REF).orElseThrow().eventIds()).isEqualTo(all);
    }

    @Test
    void aCrashBetweenTheSlicePutAndTheHeadUpdateLosesNoIdWarmOrCold() {
        boolean[] crash = {false};
        DynamoDbWindowStore crashing = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> crash[0]);
        Set<String> all = grow(List.of(crashing), 5);
        crash[0] = true;
        all = grow(List.of(crashing), 3, all);
        crash[0] = false;
        assertThat(WindowItemCodec.ids(head()).size()).as("the spilled ids stayed on the head").isGreaterThan(32);
        all = grow(List.of(crashing), 4, all);

        assertThat(crashing.load(REF).orElseThrow().eventIds()).isEqualTo(all);
        assertThat(container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false).load(REF).orElseThrow().eventIds())
                .as("cold").isEqualTo(all);
    }

    @Test
    void aWindowStoredBeforeBoundedLoadsLoadsEveryIdAndStaysAsItWas() {
        // As the former code wrote it: slices numbered 0, 1, ... without padding, and no sn on the head.
        Map<String, AttributeValue> head = new HashMap<>(WindowItemCodec.head(open(Set.of("h1", "h2")), 3, Set.of("h1", "h2"), IdLayout.EMPTY));
        head.remove(WindowItemCodec.NEWEST_SLICE);
        TABLE.client().putItem(b -> b.tableName(TABLE.name()).item(head));
        for (int n = 0; n < 12; n++) {
            Map<String, AttributeValue> slice = new HashMap<>(WindowItemCodec.slice(REF, n, Set.of("old-" + n), T0.plusSeconds(3600)));
            slice.put("sk", AttributeValue.fromS(REF.windowId() + "#S#" + n));
            TABLE.client().putItem(b -> b.tableName(TABLE.name()).item(slice));
        }
        Set<String> all = new HashSet<>(Set.of("h1", "h2"));
        for (int n = 0; n < 12; n++) {
            all.add("old-" + n);
        }
        DynamoDbWindowStore store = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false);
        StoredWindow loaded = store.load(REF).orElseThrow();
        assertThat(loaded.eventIds()).isEqualTo(all);
        assertThat(((IdLayout) loaded.layout()).legacy()).isTrue();

        all = grow(List.of(store), 3, all);

        assertThat(head()).as("still stored as before").doesNotContainKey(WindowItemCodec.NEWEST_SLICE);
        assertThat(store.load(REF).orElseThrow().eventIds()).isEqualTo(all);
    }

    @Test
    void aLiveSessionWithSlicesLoadsEveryIdColdAndWarmAndItsCommittedHeadToo() {
        DynamoDbWindowStore warm = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false);
        WindowRef ref = new WindowRef("alerts", KEY, "S000000000001000");
        LiveSessions previous = growSession(warm, ref, 12);
        Set<String> ids = previous.sessions().get(0).eventIds();
        calls.clear();
        assertThat(warm.loadLive("alerts", KEY).sessions().get(0).eventIds()).isEqualTo(ids);
        assertThat(calls).as("warm: the live item alone").isEqualTo(Map.of("GetItem", 1L));
        DynamoDbWindowStore cold = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false);
        assertThat(cold.loadLive("alerts", KEY).sessions().get(0).eventIds()).isEqualTo(ids);

        commit(warm, previous);
        assertThat(warm.load(ref).orElseThrow().eventIds()).isEqualTo(ids);
        assertThat(cold.load(ref).orElseThrow().eventIds()).isEqualTo(ids);
        assertThat(container(new SliceCache(0), update -> false).load(ref).orElseThrow().eventIds()).as("no cache at all").isEqualTo(ids);
    }

    /**
     * A late event's search for committed sessions reads their heads, never every slice: a container that holds a
     * session's slices reads at most a page of them (the one that shows it has slices), however many it has.
     */
    @Test
    void committedSessionsAroundALateEventAreReadByTheirHeadsAndTheSlicesTheContainerLacks() {
        DynamoDbWindowStore warm = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false);
        WindowRef ref = new WindowRef("alerts", KEY, "S000000000001000");
        LiveSessions grown = growSession(warm, ref, 30);
        Set<String> ids = grown.sessions().get(0).eventIds();
        commit(warm, grown);
        long slices = sliceItems(ref);
        assertThat(slices).as("a session of many slices").isGreaterThan(20);

        calls.clear();
        itemsRead[0] = 0;
        List<StoredWindow> around = warm.closedSessions("alerts", KEY, 1_500, 2_000);
        assertThat(around).extracting(w -> w.ref().windowId()).containsExactly("S000000000001000");
        assertThat(around.get(0).eventIds()).isEqualTo(ids);
        assertThat(calls).as("the item after the range, a page that meets the slices, the head").isEqualTo(Map.of("Query", 3L));
        assertThat(itemsRead[0]).as("the head and one page of slices").isEqualTo(1 + DynamoDbWindowStore.FIRST_PAGE_ITEMS);

        calls.clear();
        DynamoDbWindowStore cold = container(new SliceCache(SliceCache.DEFAULT_BYTES), update -> false);
        List<StoredWindow> coldAround = cold.closedSessions("alerts", KEY, 1_500, 2_000);
        assertThat(coldAround.get(0).eventIds()).as("cold: every slice, once").isEqualTo(ids);
        assertThat(calls).isEqualTo(Map.of("Query", 4L));
        calls.clear();
        assertThat(cold.closedSessions("alerts", KEY, 1_500, 2_000).get(0).eventIds()).isEqualTo(ids);
        assertThat(calls).as("then it holds them").isEqualTo(Map.of("Query", 3L));
    }

    /** Grows one live session by {@code batches} batches of 40 ids, spilling as it goes; the live sessions after. */
    private static LiveSessions growSession(DynamoDbWindowStore store, WindowRef ref, int batches) {
        Set<String> ids = new HashSet<>();
        LiveSessions previous = store.loadLive(ref.pipeline(), ref.key());
        for (int batch = 0; batch < batches; batch++) {
            for (int i = 0; i < 40; i++) {
                ids.add(String.format("%08d%08d", batch, i));
            }
            StoredWindow s = previous.sessions().isEmpty() ? null : previous.sessions().get(0);
            StoredWindow next = new StoredWindow(ref, s == null ? 0 : s.version(), WindowStatus.OPEN, null, T0.plusSeconds(3600), 0, null,
                    ids, "{}", s == null ? null : s.layout());
            assertThat(store.replaceLive(previous, new LiveSessions(ref.pipeline(), ref.key(), previous.version(), List.of(next), null,
                    T0.plusSeconds(3600))).applied()).isTrue();
            previous = store.loadLive(ref.pipeline(), ref.key());
            assertThat(previous.sessions().get(0).eventIds()).isEqualTo(ids);
        }
        return previous;
    }

    /** Commits the one live session: its head at the live version, with the session's layout; its slices stay its own. */
    private static void commit(DynamoDbWindowStore store, LiveSessions live) {
        StoredWindow session = live.sessions().get(0);
        StoredWindow committed = new StoredWindow(session.ref(), live.version(), WindowStatus.CLOSED, null, session.expiresAt(), 1, null,
                session.eventIds(), "{}", session.layout());
        assertThat(store.create(committed).applied()).isTrue();
    }

    private static long sliceItems(WindowRef ref) {
        return TABLE.client().query(b -> b.tableName(TABLE.name()).keyConditionExpression("pk = :pk AND begins_with(sk, :s)")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(WindowKeys.windowPk(ref.pipeline(), ref.key())),
                        ":s", AttributeValue.fromS(ref.windowId() + "#S#")))).count();
    }

    /** Grows the window by {@code rounds} batches of 40 ids, each loaded and written in the next container in turn. */
    private Set<String> grow(List<DynamoDbWindowStore> containers, int rounds) {
        return grow(containers, rounds, new HashSet<>());
    }

    private Set<String> grow(List<DynamoDbWindowStore> containers, int rounds, Set<String> all) {
        Set<String> ids = new HashSet<>(all);
        int start = ids.size();
        for (int round = 0; round < rounds; round++) {
            DynamoDbWindowStore store = containers.get(round % containers.size());
            StoredWindow loaded = store.load(REF).orElse(null);
            assertThat(loaded == null ? Set.of() : loaded.eventIds()).isEqualTo(ids);
            for (int i = 0; i < 40; i++) {
                ids.add(String.format("%08d%08d", start + round, i));
            }
            boolean applied = loaded == null ? store.create(open(ids)).applied()
                    : store.replace(loaded, new StoredWindow(REF, loaded.version(), WindowStatus.OPEN, null, loaded.expiresAt(), 0, null, ids,
                    "{}", loaded.layout())).applied();
            assertThat(applied).isTrue();
        }
        return ids;
    }

    private static StoredWindow open(Set<String> ids) {
        return new StoredWindow(REF, 0, WindowStatus.OPEN, null, T0.plusSeconds(3600), 0, null, ids, "{}", null);
    }

    private Map<String, AttributeValue> head() {
        return TABLE.client().getItem(b -> b.tableName(TABLE.name()).consistentRead(true).key(Map.of("pk",
                AttributeValue.fromS(WindowKeys.windowPk(REF.pipeline(), REF.key())), "sk", AttributeValue.fromS(REF.windowId() + "#H")))).item();
    }

    /**
     * A store as one function container builds it, over a client that counts its calls and throttles the spill's head
     * update while {@code crashes} says so (the spill then ends after its slice, as after a crash).
     */
    private DynamoDbWindowStore container(SliceCache cache, Predicate<UpdateItemRequest> crashes) {
        DynamoDbClient client = CountingDynamoDb.over(TABLE.client(), calls, (method, args) -> {
            if (method.getName().equals("updateItem") && args[0] instanceof UpdateItemRequest update
                    && update.updateExpression().startsWith("DELETE") && crashes.test(update)) {
                throw ProvisionedThroughputExceededException.builder().message("the crash between slice and head").statusCode(503).build();
            }
            if (method.getName().equals("query") && args[0] instanceof QueryRequest query) {
                QueryResponse page = TABLE.client().query(query);
                itemsRead[0] += page.count();
                return page;
            }
            return null;
        });
        return new DynamoDbWindowStore(client, TABLE.name(), DynamoDbWindowStore.Settings.defaults(), WriteCostListener.NONE,
                dev.fanin.aws.RetryPolicy.defaults(), cache);
    }
}
