package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.aws.support.FreshTable;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WindowStore.DueBucket;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The tools' reader of the table, against the local endpoint, on items the store itself wrote. */
class WindowTableReaderTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Set<WindowStatus> ALL = java.util.EnumSet.allOf(WindowStatus.class);
    @RegisterExtension
    static final FreshTable TABLE = new FreshTable("windows");
    private DynamoDbWindowStore store;
    private WindowTableReader reader;

    @BeforeEach
    void store() {
        store = new DynamoDbWindowStore(TABLE.client(), TABLE.name(), DynamoDbWindowStore.Settings.defaults().withSpillThreshold(2));
        reader = new WindowTableReader(TABLE.client(), TABLE.name());
    }

    @Test
    void pagesVisitEveryHeadOnceAndSkipSlicesBucketsAndCounters() {
        Set<WindowRef> written = new HashSet<>();
        for (int i = 0; i < 7; i++) {
            WindowRef ref = new WindowRef(i % 2 == 0 ? "alerts" : "uploads", "key#" + i + "|ü", "T" + i);
            store.create(window(ref, Set.of("a" + i), T0.plusSeconds(60)));
            store.addDue(ref.pipeline(), T0.plusSeconds(60), List.of(ref), T0.plusSeconds(3600));
            written.add(ref);
        }
        store.reserveSlots("alerts", 1, 3, 100);

        List<StoredWindow> seen = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            WindowTableReader.HeadPage page = reader.heads(Optional.empty(), ALL, cursor, 3, 2);
            assertThat(page.reads()).isBetween(1, 2);
            assertThat(page.windows()).hasSizeLessThanOrEqualTo(3);
            seen.addAll(page.windows());
            cursor = page.cursor();
            pages++;
        } while (cursor.isPresent() && pages < 50);

        assertThat(seen).extracting(StoredWindow::ref).containsExactlyInAnyOrderElementsOf(written);
        assertThat(seen).allSatisfy(w -> assertThat(w.status()).isEqualTo(WindowStatus.OPEN));
    }

    @Test
    void onePipelinesPageHoldsOnlyItsWindows() {
        store.create(window(new WindowRef("alerts", "k1", "T1"), Set.of("a"), null));
        store.create(window(new WindowRef("alerts-2", "k1", "T1"), Set.of("a"), null));

        WindowTableReader.HeadPage page = reader.heads(Optional.of("alerts"), ALL, Optional.empty(), 10, 5);

        assertThat(page.windows()).extracting(w -> w.ref().pipeline()).containsExactly("alerts");
        assertThat(page.cursor()).isEmpty();
    }

    @Test
    void aStatusFilterIsAppliedByTheTable() {
        WindowRef open = new WindowRef("alerts", "k1", "T1");
        WindowRef held = new WindowRef("alerts", "k2", "T1");
        store.create(window(open, Set.of("a"), null));
        store.create(new StoredWindow(held, 0, WindowStatus.HELD, null, T0.plusSeconds(3600), 0, null, Set.of("a"), "{}", null));

        WindowTableReader.HeadPage page = reader.heads(Optional.empty(), Set.of(WindowStatus.HELD, WindowStatus.CLAIMED),
                Optional.empty(), 10, 5);

        assertThat(page.windows()).extracting(StoredWindow::ref).containsExactly(held);
    }

    @Test
    void aPageStopsAtItsReadBoundAndSaysWhereToGoOn() {
        for (int i = 0; i < 6; i++) {
            store.create(window(new WindowRef("alerts", "k" + i, "T1"), Set.of("a"), null));
        }

        WindowTableReader.HeadPage page = reader.heads(Optional.of("uploads"), ALL, Optional.empty(), 2, 2);

        assertThat(page.windows()).isEmpty();
        assertThat(page.reads()).isEqualTo(2);
        assertThat(page.itemsRead()).isEqualTo(4);
        assertThat(page.cursor()).isPresent();
    }

    @Test
    void oneWindowComesWithItsSlicesAndTheBucketsThatListIt() {
        WindowRef ref = new WindowRef("alerts", "k1", "T1");
        store.create(window(ref, Set.of("a", "b", "c"), T0.plusSeconds(60)));
        store.addDue("alerts", T0.plusSeconds(60), List.of(ref, new WindowRef("alerts", "other", "T1")), T0.plusSeconds(3600));
        store.addDue("alerts", T0.plusSeconds(90), List.of(new WindowRef("alerts", "k1", "*")), T0.plusSeconds(3600));

        assertThat(reader.window(ref).orElseThrow().eventIds()).containsExactlyInAnyOrder("a", "b", "c");
        List<DueBucket> listings = reader.listings(ref, 0, store.dueShards());
        assertThat(listings).extracting(DueBucket::dueAt).containsExactly(T0.plusSeconds(60), T0.plusSeconds(90));
        assertThat(reader.listings(new WindowRef("alerts", "nobody", "T1"), 0, store.dueShards())).isEmpty();
        assertThat(reader.earliestDueBucket()).contains(T0.plusSeconds(60));
    }

    @Test
    void aListingLeftInAShardPastDueShardsIsFoundThere() {
        // A window that a deployment of 64 shards listed in a shard past the 16 of today's.
        WindowRef ref = java.util.stream.IntStream.range(0, 1000).mapToObj(i -> new WindowRef("alerts", "k" + i, "T1"))
                .filter(r -> WindowKeys.shardOf(r, 64) >= 16).findFirst().orElseThrow();
        new DynamoDbWindowStore(TABLE.client(), TABLE.name(), new DynamoDbWindowStore.Settings(64, 32))
                .addDue("alerts", T0.plusSeconds(60), List.of(ref), T0.plusSeconds(3600));

        assertThat(reader.listings(ref, 0, 16)).isEmpty();
        assertThat(reader.listings(ref, 16, WindowStore.MAX_DUE_SHARDS)).extracting(DueBucket::shard)
                .containsExactly(WindowKeys.shardOf(ref, 64));
    }

    /**
     * A session key's accepting sessions live in its live item, not in heads of their own: a page lists each of them
     * (filtered by status here, since the item holds the statuses inside it), and one session is read from there, its
     * committed head only once it has left the live item.
     */
    @Test
    void acceptingSessionsAreListedAndReadFromTheirKeysLiveItem() {
        WindowRef open = new WindowRef("alerts", "k1", WindowRef.sessionId(1_000));
        WindowRef held = new WindowRef("alerts", "k1", WindowRef.sessionId(90_000));
        WindowRef committed = new WindowRef("alerts", "k1", WindowRef.sessionId(1));
        store.create(new StoredWindow(committed, 0, WindowStatus.CLOSED, null, T0.plusSeconds(3600), 0, null, Set.of("z"), "{}", null));
        LiveSessions live = new LiveSessions("alerts", "k1", 0, List.of(window(open, Set.of("a", "b", "c"), T0.plusSeconds(60)),
                new StoredWindow(held, 0, WindowStatus.HELD, null, T0.plusSeconds(3600), 0, null, Set.of("d"), "{}", null)),
                null, T0.plusSeconds(3600));
        assertThat(store.replaceLive(LiveSessions.none("alerts", "k1"), live).applied()).isTrue();

        WindowTableReader.HeadPage all = reader.heads(Optional.of("alerts"), ALL, Optional.empty(), 10, 5);
        WindowTableReader.HeadPage heldOnly = reader.heads(Optional.empty(), Set.of(WindowStatus.HELD), Optional.empty(), 10, 5);

        assertThat(all.windows()).extracting(StoredWindow::ref).containsExactlyInAnyOrder(open, held, committed);
        assertThat(heldOnly.windows()).extracting(StoredWindow::ref).containsExactly(held);
        assertThat(reader.window(open).orElseThrow().eventIds()).as("with its spilled slice").containsExactlyInAnyOrder("a", "b", "c");
        assertThat(reader.window(committed).orElseThrow().status()).isEqualTo(WindowStatus.CLOSED);
    }

    @Test
    void aForeignCursorIsRefusedByName() {
        assertThatThrownBy(() -> reader.heads(Optional.empty(), ALL, Optional.of("bm90IGEgY3Vyc29y"), 10, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a window page cursor");
    }

    private static StoredWindow window(WindowRef ref, Set<String> ids, Instant dueAt) {
        return new StoredWindow(ref, 0, WindowStatus.OPEN, dueAt, T0.plusSeconds(3600), 0, null, ids, "{}", null);
    }
}
