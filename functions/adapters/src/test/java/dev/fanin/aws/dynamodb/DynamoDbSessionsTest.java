package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.port.WriteOutcome.Rejection;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.SessionView;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import dev.fanin.aws.support.FreshTable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The live item of a session key and the committed sessions around an event time, on the local endpoint: the exact
 * conditions (a refactor must not weaken them), the round trip, the version race, the spill, and the read bound.
 */
class DynamoDbSessionsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String KEY = "acct#1|eu-west-1|servicé ✓";
    @RegisterExtension
    static final FreshTable TABLE = new FreshTable("windows");
    private DynamoDbWindowStore store;

    @BeforeEach
    void store() {
        store = new DynamoDbWindowStore(TABLE.client(), TABLE.name(), DynamoDbWindowStore.Settings.defaults().withSpillThreshold(4));
    }

    @Test
    void theLiveItemIsOnePutConditionalOnItsAbsenceThenOnItsVersionReadConsistently() {
        DynamoDbSessions sessions = store.sessions();
        PutItemRequest create = sessions.livePutRequest(Map.of(), 0);
        assertThat(create.conditionExpression()).isEqualTo("attribute_not_exists(#pk)");
        assertThat(create.expressionAttributeNames()).isEqualTo(Map.of("#pk", "pk"));
        PutItemRequest replace = sessions.livePutRequest(Map.of(), 7);
        assertThat(replace.conditionExpression()).isEqualTo("#ver = :expected");
        assertThat(replace.expressionAttributeNames()).isEqualTo(Map.of("#ver", "ver"));
        assertThat(replace.expressionAttributeValues()).isEqualTo(Map.of(":expected", AttributeValue.fromN("7")));
        assertThat(sessions.liveGetRequest("alerts", KEY).consistentRead()).isTrue();
        assertThat(sessions.liveGetRequest("alerts", KEY).key().get("sk")).isEqualTo(AttributeValue.fromS("S~"));
    }

    @Test
    void committedSessionsAreReadByADescendingConsistentQueryBeforeTheRangeEnd() {
        QueryRequest q = store.sessions().closedRequest("alerts", KEY, "S000000000002000", 8, null);
        assertThat(q.keyConditionExpression()).isEqualTo("#pk = :pk AND #sk < :before");
        assertThat(q.expressionAttributeValues().get(":before")).isEqualTo(AttributeValue.fromS("S000000000002000"));
        assertThat(q.scanIndexForward()).isFalse();
        assertThat(q.consistentRead()).isTrue();
        assertThat(q.limit()).isEqualTo(8);
    }

    @Test
    void liveSessionsRoundTripEveryFieldAndAStaleVersionIsAConflict() {
        LiveSessions none = store.loadLive("alerts", KEY);
        assertThat(none.version()).isZero();
        SessionView lastClosed = new SessionView("S000000000000100", new Interval(100, 151), WindowStatus.CLOSED, 180);
        LiveSessions first = live(none, lastClosed, session("S000000000001000", Set.of("a", "b"), T0.plusSeconds(60)),
                session("S000000000005000", Set.of("c"), null));
        assertThat(store.replaceLive(none, first).applied()).isTrue();

        LiveSessions loaded = store.loadLive("alerts", KEY);
        assertThat(loaded.version()).isEqualTo(1);
        assertThat(loaded.lastClosed()).isEqualTo(lastClosed);
        assertThat(loaded.expiresAt()).isEqualTo(T0.plusSeconds(3600));
        assertThat(loaded.sessions()).extracting(w -> w.ref().windowId()).containsExactly("S000000000001000", "S000000000005000");
        StoredWindow s = loaded.sessions().get(0);
        assertThat(s.version()).isEqualTo(1);
        assertThat(s.eventIds()).containsExactlyInAnyOrder("a", "b");
        assertThat(s.dueAt()).isEqualTo(T0.plusSeconds(60));
        assertThat(s.state()).isEqualTo("{\"ids\":2}");
        assertThat(loaded.sessions().get(1).dueAt()).isNull();

        WriteOutcome stale = store.replaceLive(none, first);
        assertThat(stale.applied()).isFalse();
        assertThat(stale.reason()).isEqualTo(Rejection.CONFLICT);
        assertThat(store.replaceLive(loaded, live(loaded, null, session("S000000000009000", Set.of("d"), null))).applied()).isTrue();
        assertThat(store.loadLive("alerts", KEY).sessions()).extracting(w -> w.ref().windowId()).containsExactly("S000000000009000");
    }

    @Test
    void tooLateVerdictsNoSessionKeepsRoundTripInTheLiveItem() {
        LiveSessions none = store.loadLive("alerts", KEY);
        Map<String, Instant> tooLate = Map.of("AAAAAAAAAAAAAAAA!", T0.plusSeconds(7200), "BBBBBBBBBBBBBBBB!", T0.plusSeconds(9000));
        LiveSessions verdicts = new LiveSessions("alerts", KEY, 0, List.of(), null, tooLate, T0.plusSeconds(9000));
        assertThat(store.replaceLive(none, verdicts).applied()).isTrue();

        assertThat(store.loadLive("alerts", KEY).tooLate()).isEqualTo(tooLate);
        Map<String, AttributeValue> item = item(WindowKeys.windowPk("alerts", KEY), "S~");
        assertThat(item.get("tl").m()).containsEntry("AAAAAAAAAAAAAAAA!", AttributeValue.fromN(String.valueOf(T0.plusSeconds(7200).getEpochSecond())));
        assertThat(item.get("ttl").n()).isEqualTo(String.valueOf(T0.plusSeconds(9000).getEpochSecond()));
    }

    @Test
    void asManyTooLateVerdictsAsAKeyKeepsTakeUnderTwoKilobytes() {
        Map<String, Instant> full = new java.util.HashMap<>();
        for (int i = 0; i < LiveSessions.MAX_TOO_LATE; i++) {
            full.put(dev.fanin.core.aggregate.EventIdDigest.tooLate(dev.fanin.core.aggregate.EventIdDigest.of("event-" + i)),
                    T0.plusSeconds(8 * 86_400 + i));
        }
        LiveSessions none = new LiveSessions("alerts", KEY, 1, List.of(), null, T0);
        LiveSessions kept = new LiveSessions("alerts", KEY, 1, List.of(), null, full, T0.plusSeconds(9 * 86_400));

        long added = DynamoDbItemSize.bytes(LiveItemCodec.item(kept, 2, Map.of(), Set.of()))
                - DynamoDbItemSize.bytes(LiveItemCodec.item(none, 2, Map.of(), Set.of()));

        assertThat(added).as("bytes the verdicts add").isBetween(1_000L, 2_048L);
    }

    @Test
    void liveSessionsThatWouldPassFourHundredKilobytesAreRefusedAsTooLargeAndNothingIsSent() {
        LiveSessions none = store.loadLive("alerts", KEY);
        String random = new java.util.Random(1).ints(300_000, ' ', '~' + 1).collect(StringBuilder::new,
                StringBuilder::appendCodePoint, StringBuilder::append).toString();
        StoredWindow big = new StoredWindow(new WindowRef("alerts", KEY, "S000000000001000"), 0, WindowStatus.OPEN, null,
                T0.plusSeconds(3600), 0, null, Set.of("a"), "{\"v\":\"" + random.replace("\\", "").replace("\"", "") + "\"}", null);
        StoredWindow other = new StoredWindow(new WindowRef("alerts", KEY, "S000000000009000"), 0, WindowStatus.OPEN, null,
                T0.plusSeconds(3600), 0, null, Set.of("b"), big.state(), null);

        WriteOutcome refused = store.replaceLive(none, live(none, null, big, other));

        assertThat(refused.applied()).isFalse();
        assertThat(refused.reason()).isEqualTo(Rejection.TOO_LARGE);
        assertThat(refused.writeUnits()).isZero();
        assertThat(store.loadLive("alerts", KEY).version()).isZero();
        assertThat(store.replaceLive(none, live(none, null, big)).applied()).as("one of them fits").isTrue();
    }

    @Test
    void aLiveSessionSpillsItsTailToASliceNamedByTheVersionWrittenAndLoadsEveryId() {
        LiveSessions previous = store.loadLive("alerts", KEY);
        Set<String> ids = new HashSet<>();
        for (int batch = 0; batch < 5; batch++) {
            for (int i = 0; i < 3; i++) {
                ids.add("id-" + batch + "-" + i);
            }
            StoredWindow s = previous.sessions().isEmpty() ? null : previous.sessions().get(0);
            StoredWindow next = s == null ? session("S000000000001000", ids, null)
                    : new StoredWindow(s.ref(), s.version(), s.status(), null, s.expiresAt(), 0, null, ids, "{}", s.layout());
            assertThat(store.replaceLive(previous, live(previous, null, next)).applied()).isTrue();
            previous = store.loadLive("alerts", KEY);
            assertThat(previous.sessions().get(0).eventIds()).isEqualTo(ids);
        }
        Map<String, AttributeValue> item = item(WindowKeys.windowPk("alerts", KEY), "S~");
        assertThat(item.get("sl").ss()).containsExactly("S000000000001000");
        assertThat(item.get("i.S000000000001000").ss().size()).as("the tail after its spills").isLessThanOrEqualTo(4);

        UpdateItemRequest spill = store.sessions().spillRequest(previous, 6, Map.of("S000000000001000", Set.of("x")));
        assertThat(spill.updateExpression()).isEqualTo("DELETE #t0 :t0 ADD #sl :sl SET #n0 = :written");
        assertThat(spill.conditionExpression()).isEqualTo("#ver = :written");
        assertThat(spill.expressionAttributeNames()).isEqualTo(Map.of("#ver", "ver", "#sl", "sl", "#t0", "i.S000000000001000",
                "#n0", "n.S000000000001000"));
        assertThat(item.get("n.S000000000001000").n()).as("the newest slice, as a head's sn").isNotNull();
    }

    @Test
    void committedSessionsAroundATimeAreTheOnesStartingBeforeItsEndDownToTheOneAtOrBeforeIt() {
        for (long start = 1_000; start <= 20_000; start += 1_000) {
            store.create(closed("S" + String.format("%015d", start), Set.of("e" + start)));
        }
        store.create(new StoredWindow(new WindowRef("alerts", KEY + "x", "S000000000005500"), 0, WindowStatus.CLOSED, null,
                T0.plusSeconds(3600), 0, null, Set.of("other"), "{}", null));

        List<StoredWindow> around = store.closedSessions("alerts", KEY, 5_500, 7_500);

        assertThat(around).extracting(w -> w.ref().windowId())
                .as("the first at or after the range end (it may have grown to before its id), then down to the one at or before its start")
                .containsExactly("S000000000008000", "S000000000007000", "S000000000006000", "S000000000005000");
        assertThat(around.get(3).eventIds()).containsExactly("e5000");
        assertThat(store.closedSessions("alerts", KEY, 500, 900)).extracting(w -> w.ref().windowId()).containsExactly("S000000000001000");
        assertThat(store.closedSessions("alerts", KEY, 25_000, 26_000)).extracting(w -> w.ref().windowId()).containsExactly("S000000000020000");
    }

    @Test
    void theFirstSessionAfterTheRangeComesWithEverySliceAndNeverTheLiveItem() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            ids.add("id-" + i);
        }
        store.create(closed("S000000000009000", ids));
        store.create(closed("S000000000012000", Set.of("later")));
        assertThat(store.replaceLive(store.loadLive("alerts", KEY), live(store.loadLive("alerts", KEY), null,
                session("S000000000020000", Set.of("live"), null))).applied()).isTrue();

        List<StoredWindow> around = store.closedSessions("alerts", KEY, 8_000, 8_500);

        assertThat(around).extracting(w -> w.ref().windowId()).containsExactly("S000000000009000");
        assertThat(around.get(0).eventIds()).as("its head and its slices").isEqualTo(ids);
        assertThat(store.closedSessions("alerts", KEY, 13_000, 14_000)).extracting(w -> w.ref().windowId())
                .as("nothing after the range but the live item, which is not a committed session").containsExactly("S000000000012000");
    }

    @Test
    void theFirstLaterItemIsReadByAnAscendingConsistentQueryThatEndsBelowTheLiveItem() {
        QueryRequest q = store.sessions().laterRequest("alerts", KEY, 2_000);
        assertThat(q.keyConditionExpression()).isEqualTo("#pk = :pk AND #sk BETWEEN :from AND :sessions");
        assertThat(q.expressionAttributeValues().get(":from")).isEqualTo(AttributeValue.fromS("S000000000002000"));
        assertThat(q.expressionAttributeValues().get(":sessions")).isEqualTo(AttributeValue.fromS("S:"));
        assertThat(q.scanIndexForward()).isNull();
        assertThat(q.consistentRead()).isTrue();
        assertThat(q.limit()).as("the first item: a head, or the slices of a live session").isEqualTo(1);
    }

    // ------------------------------------------------------------ helpers

    private static StoredWindow session(String id, Set<String> ids, Instant dueAt) {
        return new StoredWindow(new WindowRef("alerts", KEY, id), 0, WindowStatus.OPEN, dueAt, T0.plusSeconds(3600), 0, null, ids,
                "{\"ids\":" + ids.size() + "}", null);
    }

    private static StoredWindow closed(String id, Set<String> ids) {
        return new StoredWindow(new WindowRef("alerts", KEY, id), 0, WindowStatus.CLOSED, null, T0.plusSeconds(3600), 0, null, ids, "{}", null);
    }

    private static LiveSessions live(LiveSessions previous, SessionView lastClosed, StoredWindow... sessions) {
        List<StoredWindow> list = new ArrayList<>(List.of(sessions));
        Instant expires = list.stream().map(StoredWindow::expiresAt).max(Instant::compareTo).orElse(previous.expiresAt());
        return new LiveSessions("alerts", KEY, previous.version(), list, lastClosed, expires);
    }

    private Map<String, AttributeValue> item(String pk, String sk) {
        return TABLE.client().getItem(b -> b.tableName(TABLE.name()).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk)))).item();
    }
}
