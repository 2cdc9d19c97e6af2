package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.dynamodb.IdLayout;
import dev.fanin.aws.dynamodb.LiveItemCodec;
import dev.fanin.aws.dynamodb.WindowItemCodec;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MeteredWindowStoreTest {

    private static final WindowRef REF = new WindowRef("p", "k", "T000000000000000");
    private static final Instant DUE = Instant.parse("2026-11-29T00:01:00Z");
    private static final Instant EXPIRES = Instant.parse("2026-12-06T00:00:00Z");

    private final DynamoDbBill bill = new DynamoDbBill();

    /**
     * Text that deflate barely shrinks (random printable ASCII, about 0.82 of its length once deflated), so that the
     * head's size, which the adapter stores deflated when smaller, lands where each test needs it.
     */
    private static String noise(int length) {
        java.util.Random random = new java.util.Random(length);
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append((char) (33 + random.nextInt(94)));
        }
        return b.toString().replace("\\", "/").replace("\"", "'");
    }
    private final MeteredWindowStore store = new MeteredWindowStore(DynamoDbWindowStore.Settings.defaults(), bill);

    @Test
    void creatingAWindowIsOnePutBilledByItsSize() {
        StoredWindow window = window(0, WindowStatus.OPEN, DUE, ids(3), noise(1600), null);

        WriteOutcome outcome = store.create(window);

        // head of more than 1 KB: 2 units; no index (due buckets are billed apart, when the core writes them).
        assertThat(headBytes(window, 1, ids(3))).isBetween(1025L, 2048L);
        assertThat(outcome.writeUnits()).isEqualTo(2);
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("PutItem", 1L));
        assertThat(bill.tableWriteUnits()).isEqualTo(2);
        assertThat(bill.dueBucketWriteUnits()).isZero();
    }

    @Test
    void slotUpdatesAreOneUnitEachAndAPartialReservationAddsAReadAndASecondUpdate() {
        assertThat(store.reserveSlots("p", 1, 10, 12)).isEqualTo(10);
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("UpdateItem", 1L));
        assertThat(store.reserveSlots("p", 1, 10, 12)).isEqualTo(2);
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("UpdateItem", 3L, "GetItem", 1L));
        assertThat(store.reserveSlots("p", 1, 1, 12)).isZero();
        store.releaseSlots("p", 1, 4);
        assertThat(store.retireEpochs("p", 2)).isEqualTo(8);

        // updates: 1 + 2 + 1 (refused) + 1 (release) + 1 (retire); reads: the partial and the refused reservation, the retirement
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("UpdateItem", 6L, "GetItem", 3L));
        assertThat(bill.tableWriteUnits()).isEqualTo(6);
        assertThat(bill.writeUnits(Purpose.COUNTER_WRITE)).isEqualTo(6);
        assertThat(store.openWindows("p")).isZero();
    }

    @Test
    void replacingIsOnePutBilledByTheLargerItem() {
        StoredWindow created = window(0, WindowStatus.OPEN, DUE, ids(3), noise(3000), null);
        store.create(created);
        StoredWindow loaded = store.load(REF).orElseThrow();
        StoredWindow next = window(1, WindowStatus.OPEN, DUE, ids(4), "small", loaded.layout());

        WriteOutcome outcome = store.replace(loaded, next);

        assertThat(headBytes(created, 1, ids(3))).isBetween(2049L, 3072L);
        assertThat(outcome.writeUnits()).isEqualTo(3); // the old head, more than 2 KB, sets the price
        assertThat(bill.calls("PutItem")).as("the create and the replace").isEqualTo(2);
        assertThat(bill.calls("GetItem")).as("the head; no slice").isEqualTo(1);
        assertThat(bill.dueBucketWriteUnits()).isZero();
    }

    @Test
    void aDueBucketIsOnePutByItsSizeAQueryPerPageAndADeleteByItsSize() {
        List<WindowRef> entries = List.of(REF, new WindowRef("p", "k2", "T1"), WindowRef.wholeKey("p", "k3"));
        store.addDue("p", DUE, entries, EXPIRES);
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("PutItem", 1L));
        assertThat(bill.dueBucketWriteUnits()).isEqualTo(1);

        List<WindowStore.DueBucket> buckets = new ArrayList<>();
        for (int shard = 0; shard < store.dueShards(); shard++) {
            buckets.addAll(store.due("p", shard, DUE, 10, null).buckets());
        }
        assertThat(buckets).singleElement().satisfies(b -> assertThat(b.entries()).isEqualTo(entries));
        assertThat(bill.calls("Query")).isEqualTo(store.dueShards());

        store.removeDue(buckets);
        assertThat(bill.calls("BatchWriteItem")).isEqualTo(1);
        assertThat(bill.dueBucketWriteUnits()).isEqualTo(2);
        assertThat(bill.tableWriteUnits()).as("window writes only").isZero();
    }

    @Test
    void aListingOfThousandsIsCutIntoItemsAndBilledPerKilobyte() {
        List<WindowRef> entries = new ArrayList<>();
        for (int i = 0; i < 4_000; i++) {
            entries.add(new WindowRef("p", "key-" + "x".repeat(90) + i, "T000000000001000"));
        }
        store.addDue("p", DUE, entries, EXPIRES);

        assertThat(bill.calls("PutItem")).isEqualTo(2);
        // about 4,000 x 115 bytes: one unit per started KB
        assertThat(bill.dueBucketWriteUnits()).isBetween(440.0, 460.0);
    }

    @Test
    void aHeadWithMoreIdsThanTheThresholdSpillsThemToASliceAndTheNextLoadKnowsIt() {
        Set<String> ids = ids(33);
        StoredWindow window = window(0, WindowStatus.OPEN, DUE, ids, "{}", null);

        WriteOutcome outcome = store.create(window);

        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("PutItem", 2L, "UpdateItem", 1L));
        // create 1, slice 1, head update 1
        assertThat(outcome.writeUnits()).isEqualTo(1 + 1 + 1);
        StoredWindow loaded = store.load(REF).orElseThrow();
        assertThat(loaded.layout()).as("the slice of version 1, read once").isEqualTo(new IdLayout(ids, 1, false));
        assertThat(loaded.eventIds()).isEqualTo(ids);
        assertThat(bill.callsByOperation()).containsEntry("GetItem", 1L).containsEntry("Query", 1L);
        assertThat(store.load(REF).orElseThrow().eventIds()).isEqualTo(ids);
        assertThat(bill.callsByOperation()).as("the container holds the slice: the head alone")
                .containsEntry("GetItem", 2L).containsEntry("Query", 1L);
        store.useContainer(1);
        assertThat(store.load(REF).orElseThrow().eventIds()).isEqualTo(ids);
        assertThat(bill.callsByOperation()).as("another container reads it once").containsEntry("GetItem", 3L).containsEntry("Query", 2L);
    }

    @Test
    void aLoadPagesItsSliceQueryAtOneMegabyte() {
        StoredWindow previous = null;
        Set<String> all = new HashSet<>();
        for (int v = 0; v < 35; v++) {
            for (int i = 0; i < 2_000; i++) {
                all.add(String.format("%08d%08d", v, i));
            }
            StoredWindow next = window(v, WindowStatus.OPEN, DUE, all, "{}", previous == null ? null : previous.layout());
            assertThat(previous == null ? store.create(next) : store.replace(previous, next)).matches(WriteOutcome::applied);
            store.useContainer(v + 1);
            previous = store.load(REF).orElseThrow();
        }
        store.useContainer(99);
        long pages = bill.calls("Query");

        assertThat(store.load(REF).orElseThrow().eventIds()).hasSize(70_000);

        // 35 slices of about 32 KB: 1.1 MB, two pages
        assertThat(bill.calls("Query") - pages).isEqualTo(2);
    }

    @Test
    void aLoadReadsTheHeadAtOneUnitPerStartedFourKilobytes() {
        store.create(window(0, WindowStatus.OPEN, DUE, ids(1), noise(6000), null));
        double before = bill.readUnits();

        store.load(REF);

        assertThat(bill.readUnits() - before).isEqualTo(2);
        assertThat(bill.calls("GetItem")).isEqualTo(1);
        assertThat(bill.calls("Query")).as("no slice yet").isZero();
    }

    @Test
    void aBatchReadStopsAtSixteenMegabytesAndAsksForTheRestAgain() {
        // 100 heads of about 200 KB: 20 MB, past what one BatchGetItem returns.
        List<StoredWindow> windows = IntStream.range(0, 100)
                .mapToObj(i -> new StoredWindow(new WindowRef("p", "k" + i, "T000000000000000"), 0, WindowStatus.OPEN, DUE, EXPIRES,
                        0, null, ids(1), noise(240_000 + i), null))
                .toList();
        windows.forEach(store::create);
        List<WindowRef> refs = windows.stream().map(StoredWindow::ref).toList();
        DynamoDbBill aloneBill = new DynamoDbBill();
        MeteredWindowStore alone = new MeteredWindowStore(DynamoDbWindowStore.Settings.defaults(), aloneBill);
        windows.forEach(alone::create);
        double aloneBefore = aloneBill.readUnits();
        refs.forEach(alone::load);
        double before = bill.readUnits();

        var loaded = store.loadAll(refs);

        assertThat(loaded).containsOnlyKeys(refs).allSatisfy((ref, window) -> assertThat(window).isPresent());
        assertThat(bill.calls("BatchGetItem")).as("the keys past 16 MB, asked again").isEqualTo(2);
        assertThat(bill.calls("GetItem")).isZero();
        assertThat(bill.readUnits() - before).as("each item billed as its own GetItem")
                .isEqualTo(aloneBill.readUnits() - aloneBefore);
    }

    @Test
    void closingAWindowIsAPlainPut() {
        store.create(window(0, WindowStatus.OPEN, DUE, ids(1), "{}", null));
        StoredWindow loaded = store.load(REF).orElseThrow();

        WriteOutcome outcome = store.replace(loaded, window(1, WindowStatus.CLOSED, null, ids(1), "{}", loaded.layout()));

        assertThat(outcome.writeUnits()).isEqualTo(1);
        assertThat(bill.calls("PutItem")).isEqualTo(2);
        assertThat(bill.calls("TransactWriteItems")).isZero();
        assertThat(bill.dueBucketWriteUnits()).isZero();
    }

    @Test
    void aKeysLiveSessionsAreOneGetOnLoadAndOnePutPerChangeBilledByTheLargerItem() {
        LiveSessions none = store.loadLive("p", "k");
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("GetItem", 1L));
        StoredWindow session = new StoredWindow(new WindowRef("p", "k", "S000000000001000"), 0, WindowStatus.OPEN, DUE, EXPIRES, 0, null,
                ids(3), noise(1600), null);
        LiveSessions next = new LiveSessions("p", "k", 0, List.of(session), null, EXPIRES);

        WriteOutcome outcome = store.replaceLive(none, next);

        long bytes = DynamoDbItemSize.bytes(LiveItemCodec.item(next, 1, LiveItemCodec.tails(next), Set.of()));
        assertThat(bytes).isBetween(1025L, 2048L);
        assertThat(outcome.writeUnits()).isEqualTo(2);
        LiveSessions loaded = store.loadLive("p", "k");
        assertThat(loaded.version()).isEqualTo(1);
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("GetItem", 2L, "PutItem", 1L));
        assertThat(store.replaceLive(none, next).applied()).as("a stale version").isFalse();
        assertThat(bill.calls("PutItem")).as("a refused write is billed too").isEqualTo(2);
    }

    @Test
    void aLiveSessionPastTheThresholdSpillsAndItsLoadQueriesItsSlices() {
        StoredWindow session = new StoredWindow(new WindowRef("p", "k", "S000000000001000"), 0, WindowStatus.OPEN, DUE, EXPIRES, 0, null,
                ids(33), "{}", null);
        WriteOutcome outcome = store.replaceLive(store.loadLive("p", "k"), new LiveSessions("p", "k", 0, List.of(session), null, EXPIRES));

        // the live item 1, the slice 1, the item's update 1
        assertThat(outcome.writeUnits()).isEqualTo(3);
        store.useContainer(1);
        LiveSessions loaded = store.loadLive("p", "k");
        assertThat(loaded.sessions().get(0).layout()).as("the slice of live version 1").isEqualTo(new IdLayout(ids(33), 1, false));
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("GetItem", 2L, "PutItem", 2L,
                "UpdateItem", 1L, "Query", 1L));
    }

    @Test
    void committedSessionsAreReadAPageAtATimeDownToTheOneAtOrBeforeTheTime() {
        for (long start = 1_000; start <= 30_000; start += 1_000) {
            store.create(new StoredWindow(new WindowRef("p", "k", WindowRef.sessionId(start)), 0, WindowStatus.CLOSED, null, EXPIRES, 0, null,
                    ids(1), "{}", null));
        }
        long before = bill.calls("Query");

        List<StoredWindow> near = store.closedSessions("p", "k", 20_500, 21_000);
        List<StoredWindow> far = store.closedSessions("p", "k", 500, 21_000);

        assertThat(near).extracting(w -> w.ref().windowId())
                .as("the first at or after the range end, then down to the one at or before its start")
                .containsExactly(WindowRef.sessionId(21_000), WindowRef.sessionId(20_000));
        assertThat(far).hasSize(21);
        // Each: one ascending page for the session after the range, then descending pages of 8 items, then 64: the near
        // one needs one, the far one two
        assertThat(bill.calls("Query") - before).isEqualTo((1 + 1) + (1 + 2));
    }

    private static StoredWindow window(long version, WindowStatus status, Instant due, Set<String> ids, String state, Object layout) {
        return new StoredWindow(REF, version, status, due, EXPIRES, 0, null, ids, state, layout);
    }

    private static long headBytes(StoredWindow window, long version, Set<String> ids) {
        return DynamoDbItemSize.bytes(WindowItemCodec.head(window, version, ids, IdLayout.EMPTY));
    }

    private static Set<String> ids(int n) {
        return IntStream.range(0, n).mapToObj(i -> String.format("%016d", i)).collect(Collectors.toCollection(HashSet::new));
    }
}
