package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.FreshTable;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore.DueBucket;
import dev.fanin.core.port.WindowStore.DuePage;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.port.WriteOutcome.Rejection;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class DynamoDbWindowStoreTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String KEY = "acct#1|eu-west-1|servicé ✓";
    @RegisterExtension
    static final FreshTable TABLE = new FreshTable("windows");
    private DynamoDbWindowStore store;

    @BeforeEach
    void store() {
        store = new DynamoDbWindowStore(TABLE.client(), TABLE.name(), DynamoDbWindowStore.Settings.defaults());
    }

    // ------------------------------------------------------------ expressions (a refactor must not weaken them)

    @Test
    void createIsOnePutConditionalOnTheWindowNotExisting() {
        StoredWindow window = open(ref("w1"), Set.of("a"), T0.plusSeconds(60));
        PutItemRequest request = store.heads().createPutRequest(WindowItemCodec.head(window, 1, Set.of("a"), IdLayout.EMPTY));

        assertThat(request.conditionExpression()).isEqualTo("attribute_not_exists(#pk)");
        assertThat(request.expressionAttributeNames()).isEqualTo(Map.of("#pk", "pk"));
        assertThat(request.item().get("ver")).isEqualTo(AttributeValue.fromN("1"));
    }

    @Test
    void slotUpdatesAreBoundedOnTheTotalAndCountedPerEpochOnOneItem() {
        Map<String, AttributeValue> counter = Map.of("pk", AttributeValue.fromS("C#alerts"), "sk", AttributeValue.fromS("slots"));
        UpdateItemRequest reserve = store.slots().reserveRequest("alerts", 42, 10, 1000);
        assertThat(reserve.key()).isEqualTo(counter);
        assertThat(reserve.updateExpression()).isEqualTo("ADD #open :n, #epoch :n");
        assertThat(reserve.conditionExpression()).isEqualTo("attribute_not_exists(#open) OR #open <= :room");
        assertThat(reserve.expressionAttributeNames()).isEqualTo(Map.of("#open", "open", "#epoch", "e42"));
        assertThat(reserve.expressionAttributeValues()).isEqualTo(Map.of(":n", AttributeValue.fromN("10"), ":room", AttributeValue.fromN("990")));

        UpdateItemRequest release = store.slots().releaseRequest("alerts", 42, 3);
        assertThat(release.key()).isEqualTo(counter);
        assertThat(release.updateExpression()).isEqualTo("ADD #open :n, #epoch :n");
        assertThat(release.conditionExpression()).isEqualTo("attribute_exists(#epoch)");
        assertThat(release.expressionAttributeValues()).isEqualTo(Map.of(":n", AttributeValue.fromN("-3")));

        UpdateItemRequest retire = store.slots().retireRequest("alerts", 41, 2);
        assertThat(retire.updateExpression()).isEqualTo("ADD #open :n REMOVE #epoch");
        assertThat(retire.conditionExpression()).isEqualTo("#epoch = :held");
        assertThat(retire.expressionAttributeNames()).isEqualTo(Map.of("#open", "open", "#epoch", "e41"));
        assertThat(retire.expressionAttributeValues()).isEqualTo(Map.of(":n", AttributeValue.fromN("-2"), ":held", AttributeValue.fromN("2")));
    }

    @Test
    void replaceIsAPutConditionalOnTheLoadedVersion() {
        StoredWindow window = open(ref("w1"), Set.of("a"), null);
        PutItemRequest request = store.heads().replacePutRequest(WindowItemCodec.head(window, 8, Set.of("a"), IdLayout.EMPTY), 7);
        assertThat(request.conditionExpression()).isEqualTo("#ver = :expected");
        assertThat(request.expressionAttributeNames()).isEqualTo(Map.of("#ver", "ver"));
        assertThat(request.expressionAttributeValues()).isEqualTo(Map.of(":expected", AttributeValue.fromN("7")));
        assertThat(request.item().get("ver")).isEqualTo(AttributeValue.fromN("8"));
    }

    @Test
    void spillWritesANewSliceThenDropsExactlyThoseIdsFromTheHeadUnderTheWrittenVersion() {
        WindowRef ref = ref("w1");
        PutItemRequest slice = store.heads().slicePutRequest(WindowItemCodec.slice(ref, 5, Set.of("a"), T0));
        assertThat(slice.item().get("sk").s()).as("numbered by the version written, zero-padded").isEqualTo("w1#S#000000000005");
        assertThat(slice.conditionExpression()).isEqualTo("attribute_not_exists(#pk)");
        UpdateItemRequest head = store.heads().spillHeadRequest(ref, 5, Set.of("a", "b"), false);
        assertThat(head.updateExpression()).isEqualTo("DELETE #ids :spilled SET #sn = :written");
        assertThat(head.conditionExpression()).as("never lowering sn (CommitRetrySliceTest)")
                .isEqualTo("#ver = :written AND (attribute_not_exists(#sn) OR #sn < :written)");
        assertThat(head.expressionAttributeNames()).isEqualTo(Map.of("#ids", "ids", "#ver", "ver", "#sn", "sn"));
        assertThat(head.expressionAttributeValues().get(":written")).isEqualTo(AttributeValue.fromN("5"));
        assertThat(new HashSet<>(head.expressionAttributeValues().get(":spilled").ss())).containsExactlyInAnyOrder("a", "b");
        UpdateItemRequest legacy = store.heads().spillHeadRequest(ref, 5, Set.of("a"), true);
        assertThat(legacy.updateExpression()).as("a window stored before bounded loads gets no sn").isEqualTo("DELETE #ids :spilled");
        assertThat(legacy.expressionAttributeNames()).isEqualTo(Map.of("#ids", "ids", "#ver", "ver"));
    }

    @Test
    void loadIsAConsistentGetOfTheHeadThenAConsistentQueryOfASliceRange() {
        GetItemRequest get = store.headGetRequest(ref("T000000000001000"));
        assertThat(get.key()).isEqualTo(Map.of("pk", AttributeValue.fromS(WindowKeys.windowPk("alerts", KEY)),
                "sk", AttributeValue.fromS("T000000000001000#H")));
        assertThat(get.consistentRead()).isTrue();
        QueryRequest range = new SealedSlices(TABLE.client(), TABLE.name(), new SliceCache(0)).rangeRequest("W#alerts#k", "T000000000001000", 4, 17);
        assertThat(range.keyConditionExpression()).isEqualTo("#pk = :pk AND #sk BETWEEN :from AND :to");
        assertThat(range.expressionAttributeValues()).isEqualTo(Map.of(":pk", AttributeValue.fromS("W#alerts#k"),
                ":from", AttributeValue.fromS("T000000000001000#S#000000000004"), ":to", AttributeValue.fromS("T000000000001000#S#000000000017")));
        assertThat(range.consistentRead()).isTrue();
        // A window stored before bounded loads (no sn on its head) is read whole, as then.
        QueryRequest request = store.loadRequest(ref("T000000000001000"));
        assertThat(request.keyConditionExpression()).isEqualTo("#pk = :pk AND begins_with(#sk, :wid)");
        assertThat(request.expressionAttributeValues().get(":wid")).isEqualTo(AttributeValue.fromS("T000000000001000#"));
        assertThat(request.consistentRead()).isTrue();
        QueryRequest due = store.dueBuckets().dueRequest("alerts", 3, T0, 25, null);
        assertThat(due.indexName()).isNull();
        assertThat(due.keyConditionExpression()).isEqualTo("#pk = :pk AND #sk < :after");
        assertThat(due.expressionAttributeValues()).isEqualTo(Map.of(
                ":pk", AttributeValue.fromS("B#alerts#3"), ":after", AttributeValue.fromS(String.format("%013d$", T0.toEpochMilli()))));
        // The sweeper's bucket pages alone are eventually consistent (DueBuckets says why).
        assertThat(due.consistentRead()).isFalse();
        assertThat(due.scanIndexForward()).isTrue();
        assertThat(due.limit()).isEqualTo(25);
    }

    // ------------------------------------------------------------ behaviour against a real endpoint

    /** A race is DynamoDB's to decide: plain moto checks a condition and writes without a lock, so both can apply. */
    private static void assumeAtomicConditionalWrites() {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.fanin.testkit.LocalAwsEndpoint.shared().atomicConditionalWrites(),
                "plain moto's conditional writes are not atomic under concurrency; the testkit's serialised moto needs python3 to import moto");
    }

    @Test
    void createThenLoadRoundTripsEveryField() {
        StoredWindow window = new StoredWindow(ref("T000000000001000"), 0, WindowStatus.OPEN, T0.plusMillis(1500),
                T0.plusSeconds(86_400), 0, null, Set.of("e1", "e2"), "{\"n\":2}", null);
        assertThat(store.create(window).applied()).isTrue();

        StoredWindow loaded = store.load(window.ref()).orElseThrow();
        assertThat(loaded.ref()).isEqualTo(window.ref());
        assertThat(loaded.version()).isEqualTo(1);
        assertThat(loaded.status()).isEqualTo(WindowStatus.OPEN);
        assertThat(loaded.dueAt()).isEqualTo(T0.plusMillis(1500));
        assertThat(loaded.expiresAt()).isEqualTo(T0.plusSeconds(86_400));
        assertThat(loaded.eventIds()).containsExactlyInAnyOrder("e1", "e2");
        assertThat(loaded.state()).isEqualTo("{\"n\":2}");
        assertThat(loaded.layout()).isEqualTo(IdLayout.EMPTY);

        Map<String, AttributeValue> head = getItem(WindowKeys.windowPk("alerts", KEY), "T000000000001000#H");
        assertThat(head.get("ttl").n()).isEqualTo(Long.toString(T0.plusSeconds(86_400).getEpochSecond()));
        assertThat(head.get("due").n()).isEqualTo(Long.toString(T0.plusMillis(1500).toEpochMilli()));
        assertThat(head).doesNotContainKey("dsh");
    }

    @Test
    void aWindowThatIsNotDueHasNoDueAttributes() {
        StoredWindow window = open(ref("w1"), Set.of("a"), T0);
        store.create(window);
        StoredWindow loaded = store.load(window.ref()).orElseThrow();
        assertThat(store.replace(loaded, with(loaded, WindowStatus.OPEN, Set.of("a", "b"), null)).applied()).isTrue();
        Map<String, AttributeValue> head = getItem(WindowKeys.windowPk("alerts", KEY), "w1#H");
        assertThat(head).doesNotContainKeys("due");
        assertThat(store.load(window.ref()).orElseThrow().dueAt()).isNull();
    }

    @Test
    void creatingAnExistingWindowIsAConflict() {
        StoredWindow window = open(ref("w1"), Set.of("a"), null);
        assertThat(store.create(window).applied()).isTrue();
        WriteOutcome again = store.create(window);
        assertThat(again.applied()).isFalse();
        assertThat(again.reason()).isEqualTo(Rejection.CONFLICT);
        assertThat(store.load(ref("w1")).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void reservationsFillUpToTheBoundAndNeverPastIt() {
        assertThat(store.reserveSlots("alerts", 7, 3, 5)).isEqualTo(3);
        assertThat(store.reserveSlots("alerts", 7, 3, 5)).as("only two left: granted in part").isEqualTo(2);
        assertThat(store.reserveSlots("alerts", 8, 1, 5)).as("at the bound").isZero();
        assertThat(store.openWindows("alerts")).isEqualTo(5);
        assertThat(store.openWindows("other")).as("each pipeline its own counter").isZero();

        store.releaseSlots("alerts", 7, 2);
        assertThat(store.openWindows("alerts")).isEqualTo(3);
        assertThat(store.reserveSlots("alerts", 8, 10, 5)).isEqualTo(2);
        assertThat(store.openWindows("alerts")).isEqualTo(5);
        assertThat(getItem("C#alerts", "slots")).containsEntry("e7", AttributeValue.fromN("3")).containsEntry("e8", AttributeValue.fromN("2"));
    }

    @Test
    void retiringAnEpochReturnsWhatItStillHoldsAndLaterReleasesToItChangeNothing() {
        store.reserveSlots("alerts", 7, 4, 100);
        store.reserveSlots("alerts", 9, 1, 100);
        store.releaseSlots("alerts", 7, 1);

        assertThat(store.retireEpochs("alerts", 8)).as("three slots of epoch 7 were left behind").isEqualTo(3);
        assertThat(store.openWindows("alerts")).isEqualTo(1);
        assertThat(getItem("C#alerts", "slots")).doesNotContainKey("e7").containsEntry("e9", AttributeValue.fromN("1"));

        store.releaseSlots("alerts", 7, 1);
        assertThat(store.openWindows("alerts")).as("a late release to a retired epoch is ignored").isEqualTo(1);
        assertThat(store.retireEpochs("alerts", 8)).isZero();
    }

    @Test
    void reservationsRacingForTheLastSlotsNeverPassTheBound() throws Exception {
        assumeAtomicConditionalWrites();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> granted = new ArrayList<>();
            CyclicBarrier start = new CyclicBarrier(4);
            for (int i = 0; i < 4; i++) {
                granted.add(pool.submit(() -> {
                    start.await();
                    int total = 0;
                    for (int round = 0; round < 5; round++) {
                        total += store.reserveSlots("alerts", 1, 3, 20);
                    }
                    return total;
                }));
            }
            int sum = 0;
            for (Future<Integer> g : granted) {
                sum += g.get();
            }
            assertThat(sum).isEqualTo(20);
            assertThat(store.openWindows("alerts")).isEqualTo(20);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aStaleVersionIsRejectedAsConflictAndChangesNothing() {
        store.create(open(ref("w1"), Set.of("a"), null));
        StoredWindow loaded = store.load(ref("w1")).orElseThrow();
        assertThat(store.replace(loaded, with(loaded, WindowStatus.OPEN, Set.of("a", "b"), null)).applied()).isTrue();

        WriteOutcome stale = store.replace(loaded, with(loaded, WindowStatus.CLOSED, Set.of("a", "c"), null));
        assertThat(stale.applied()).isFalse();
        assertThat(stale.reason()).isEqualTo(Rejection.CONFLICT);
        StoredWindow now = store.load(ref("w1")).orElseThrow();
        assertThat(now.version()).isEqualTo(2);
        assertThat(now.eventIds()).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void twoWritersRacingFromOneVersionApplyExactlyOnce() throws Exception {
        assumeAtomicConditionalWrites();
        store.create(open(ref("w1"), Set.of("seed"), null));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 25; round++) {
                StoredWindow loaded = store.load(ref("w1")).orElseThrow();
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<WriteOutcome>> outcomes = new ArrayList<>();
                for (String writer : List.of("x", "y")) {
                    Set<String> ids = new HashSet<>(loaded.eventIds());
                    ids.add(writer + round);
                    StoredWindow next = with(loaded, WindowStatus.OPEN, ids, null);
                    outcomes.add(pool.submit(() -> {
                        start.await();
                        return store.replace(loaded, next);
                    }));
                }
                List<WriteOutcome> results = new ArrayList<>();
                for (Future<WriteOutcome> outcome : outcomes) {
                    results.add(outcome.get());
                }
                assertThat(results).filteredOn(WriteOutcome::applied).hasSize(1);
                assertThat(results).filteredOn(o -> !o.applied()).allMatch(o -> o.reason() == Rejection.CONFLICT);
                assertThat(store.load(ref("w1")).orElseThrow().version()).isEqualTo(loaded.version() + 1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void spillSealsIdsAcrossSeveralSlicesAndLoadReturnsEveryId() {
        store = new DynamoDbWindowStore(TABLE.client(), TABLE.name(), DynamoDbWindowStore.Settings.defaults().withSpillThreshold(5));
        WindowRef ref = ref("w1");
        Set<String> all = new HashSet<>(Set.of("e0"));
        store.create(open(ref, all, null));
        for (int round = 1; round <= 8; round++) {
            StoredWindow loaded = store.load(ref).orElseThrow();
            assertThat(loaded.eventIds()).isEqualTo(all);
            for (int i = 0; i < 4; i++) {
                all.add("e" + round + "-" + i);
            }
            assertThat(store.replace(loaded, with(loaded, WindowStatus.OPEN, all, null)).applied()).isTrue();
        }
        StoredWindow loaded = store.load(ref).orElseThrow();
        assertThat(loaded.eventIds()).isEqualTo(all).hasSize(33);
        assertThat(loaded.version()).as("spills move ids, they do not bump the version").isEqualTo(9);
        IdLayout layout = (IdLayout) loaded.layout();
        assertThat(layout.newestSlice()).isGreaterThanOrEqualTo(3);
        Map<String, AttributeValue> head = getItem(WindowKeys.windowPk("alerts", KEY), "w1#H");
        assertThat(WindowItemCodec.ids(head).size()).isLessThanOrEqualTo(5);
        Set<String> union = new HashSet<>(WindowItemCodec.ids(head));
        union.addAll(layout.sealedIds());
        assertThat(union).isEqualTo(all);
    }

    @Test
    void aCrashBetweenSliceWriteAndHeadRewriteLosesNoId() {
        store = new DynamoDbWindowStore(TABLE.client(), TABLE.name(), DynamoDbWindowStore.Settings.defaults().withSpillThreshold(8));
        WindowRef ref = ref("w1");
        Set<String> ids = IntStream.range(0, 8).mapToObj(i -> "e" + i).collect(Collectors.toSet());
        store.create(open(ref, ids, null));
        // The crash: the slice of version 1 is written, the head rewrite never happens.
        TABLE.client().putItem(store.heads().slicePutRequest(WindowItemCodec.slice(ref, 1, ids, T0.plusSeconds(3600))));

        StoredWindow loaded = store.load(ref).orElseThrow();
        assertThat(loaded.eventIds()).isEqualTo(ids);
        assertThat(((IdLayout) loaded.layout()).sealedIds()).as("no head counts the slice").isEmpty();

        Set<String> more = new HashSet<>(ids);
        more.add("e8");
        assertThat(store.replace(loaded, with(loaded, WindowStatus.OPEN, more, null)).applied()).isTrue();
        assertThat(WindowItemCodec.ids(getItem(WindowKeys.windowPk("alerts", KEY), "w1#H")))
                .as("the next writer spilled all nine into the slice of version 2").isEmpty();
        assertThat(store.load(ref).orElseThrow().eventIds()).isEqualTo(more);
        assertThat(new DynamoDbWindowStore(TABLE.client(), TABLE.name(), DynamoDbWindowStore.Settings.defaults()).load(ref).orElseThrow().eventIds())
                .as("cold").isEqualTo(more);
    }

    @Test
    void aCallerHoldingTheVersionItWroteCanWriteAgainAfterASpill() {
        store = new DynamoDbWindowStore(TABLE.client(), TABLE.name(), DynamoDbWindowStore.Settings.defaults().withSpillThreshold(2));
        StoredWindow created = open(ref("w1"), Set.of("a", "b", "c"), null);
        store.create(created);
        StoredWindow claimed = new StoredWindow(created.ref(), 1, WindowStatus.CLAIMED, null, created.expiresAt(), 1,
                T0.plusSeconds(30), Set.of("a", "b", "c"), "{}", created.layout());
        assertThat(store.replace(with(claimed, WindowStatus.OPEN, claimed.eventIds(), null), claimed).applied()).isTrue();
        StoredWindow claimedAtTwo = new StoredWindow(claimed.ref(), 2, claimed.status(), null, claimed.expiresAt(), 1,
                claimed.leaseUntil(), claimed.eventIds(), claimed.state(), claimed.layout());
        WriteOutcome commit = store.replace(claimedAtTwo, with(claimedAtTwo, WindowStatus.CLOSED, claimed.eventIds(), null));
        assertThat(commit.applied()).isTrue();
        assertThat(store.load(ref("w1")).orElseThrow().eventIds()).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void dueBucketsComeBackByShardEarliestFirstPageByPageUntilRemoved() {
        store = new DynamoDbWindowStore(TABLE.client(), TABLE.name(), new DynamoDbWindowStore.Settings(1, 32));
        for (int i = 0; i < 5; i++) {
            store.addDue("alerts", T0.plusSeconds(10 - i), List.of(new WindowRef("alerts", "k" + i, "T1")), T0.plusSeconds(3600));
        }
        store.addDue("alerts", T0.plusSeconds(11), List.of(new WindowRef("alerts", "later", "T1")), T0.plusSeconds(3600));
        store.addDue("other", T0, List.of(new WindowRef("other", "k0", "T1")), T0.plusSeconds(3600));
        // Keys with any character, and a whole key (a session pipeline's entry), survive the round trip.
        store.addDue("alerts", T0.plusSeconds(10), List.of(new WindowRef("alerts", "a#b c", "S000000000001000"),
                WindowRef.wholeKey("alerts", "x#y")), T0.plusSeconds(3600));

        List<DueBucket> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            DuePage page = store.due("alerts", 0, T0.plusSeconds(10), 2, cursor);
            assertThat(page.buckets().size()).isLessThanOrEqualTo(2);
            seen.addAll(page.buckets());
            cursor = page.cursor();
            pages++;
        } while (cursor != null && pages < 10);
        assertThat(pages).isGreaterThanOrEqualTo(3);
        assertThat(seen).hasSize(6);
        assertThat(seen.subList(0, 4)).extracting(b -> b.entries().get(0).key()).containsExactly("k4", "k3", "k2", "k1");
        assertThat(seen.get(0).dueAt()).isEqualTo(T0.plusSeconds(6));
        assertThat(seen.subList(4, 6)).flatExtracting(DueBucket::entries).contains(new WindowRef("alerts", "k0", "T1"),
                new WindowRef("alerts", "a#b c", "S000000000001000"), WindowRef.wholeKey("alerts", "x#y"));

        store.removeDue(seen.subList(0, 5));
        List<DueBucket> left = store.due("alerts", 0, T0.plusSeconds(60), 10, null).buckets();
        assertThat(left).hasSize(2);
        assertThat(left.get(1).entries()).containsExactly(new WindowRef("alerts", "later", "T1"));
    }

    @Test
    void aLongListingIsCutIntoItemsUnderTheSizeLimit() {
        store = new DynamoDbWindowStore(TABLE.client(), TABLE.name(), new DynamoDbWindowStore.Settings(1, 32));
        List<WindowRef> entries = new ArrayList<>();
        for (int i = 0; i < 4_000; i++) {
            entries.add(new WindowRef("alerts", "key-" + "x".repeat(90) + i, "T000000000001000"));
        }
        store.addDue("alerts", T0, entries, T0.plusSeconds(3600));

        List<DueBucket> buckets = store.due("alerts", 0, T0, 10, null).buckets();
        assertThat(buckets).hasSizeGreaterThan(1);
        assertThat(buckets).flatExtracting(DueBucket::entries).containsExactlyInAnyOrderElementsOf(entries);
    }

    @Test
    void writeUnitsPerWriteStayAtOneWithSpillAndGrowWithout() {
        double[] withoutSpill = growWindow(Integer.MAX_VALUE);
        double[] withSpill = growWindow(24);
        System.out.printf("size-based write units for the last write of 150 ids in 10-id batches: without spill %.0f, with spill %.0f (head %.0f + spill %.0f)%n",
                withoutSpill[0], withSpill[0] + withSpill[1], withSpill[0], withSpill[1]);
        assertThat(withoutSpill[0]).as("a head carrying every id costs several units a write").isGreaterThanOrEqualTo(3);
        assertThat(withSpill[0]).as("a spilled head costs one unit a write").isEqualTo(1);
        assertThat(withSpill[2]).as("total units over the window's life").isLessThan(withoutSpill[2]);
    }

    /** Grows one window to 150 ids; returns {last head write units, last spill units, total units}. */
    private double[] growWindow(int spillThreshold) {
        double[] last = new double[3];
        String name = "grow-" + spillThreshold;
        DynamoDbWindowStore measured = new DynamoDbWindowStore(TABLE.client(), TABLE.name(),
                DynamoDbWindowStore.Settings.defaults().withSpillThreshold(spillThreshold),
                (operation, reported, sizeBased) -> {
                    if (operation.equals("spill")) {
                        last[1] = sizeBased;
                    } else {
                        last[0] = sizeBased;
                        last[1] = 0;
                    }
                    last[2] += sizeBased;
                });
        WindowRef ref = new WindowRef("alerts", name, "T1");
        Set<String> ids = new HashSet<>();
        measured.create(new StoredWindow(ref, 0, WindowStatus.OPEN, null, T0, 0, null, ids, "{}", null));
        for (int batch = 0; batch < 15; batch++) {
            StoredWindow loaded = measured.load(ref).orElseThrow();
            for (int i = 0; i < 10; i++) {
                ids.add(String.format("%016x", (long) batch * 1000 + i));
            }
            assertThat(measured.replace(loaded, with(loaded, WindowStatus.OPEN, ids, null)).applied()).isTrue();
        }
        assertThat(measured.load(ref).orElseThrow().eventIds()).isEqualTo(ids);
        return last;
    }

    // ------------------------------------------------------------ helpers

    private static WindowRef ref(String windowId) {
        return new WindowRef("alerts", KEY, windowId);
    }

    private static StoredWindow open(WindowRef ref, Set<String> ids, Instant dueAt) {
        return new StoredWindow(ref, 0, WindowStatus.OPEN, dueAt, T0.plusSeconds(3600), 0, null, ids, "{}", null);
    }

    /** The next window a core would produce from {@code loaded}: same version and layout, new fields. */
    private static StoredWindow with(StoredWindow loaded, WindowStatus status, Set<String> ids, Instant dueAt) {
        return new StoredWindow(loaded.ref(), loaded.version(), status, dueAt, loaded.expiresAt(), loaded.fence(),
                loaded.leaseUntil(), ids, "{\"ids\":" + ids.size() + "}", loaded.layout());
    }

    private Map<String, AttributeValue> getItem(String pk, String sk) {
        return TABLE.client().getItem(GetItemRequest.builder().tableName(TABLE.name()).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk))).build()).item();
    }
}
