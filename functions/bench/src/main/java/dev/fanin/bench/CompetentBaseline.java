package dev.fanin.bench;

import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.core.aggregate.EventIdDigest;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The strongest do-it-yourself design we know, as a cost model over the same SQS batches, billed by the same
 * {@link CapacityRules}. Per batch and window (windows as {@link BaselineWindows} assigns them), one conditional
 * {@code UpdateItem}: {@code ADD cnt :n, ids :digests SET ttl}, guarded by {@code NOT contains(ids, :d)} for each
 * of the batch's event-id digests (16-character {@link EventIdDigest}s, as fanin stores). When a digest is already
 * there, the condition fails (charged by the item's size, as DynamoDB does) and, with
 * {@code ReturnValuesOnConditionCheckFailure=ALL_OLD}, returns the item at no read cost; the update is retried with
 * the digests not yet in the set. A session's item also holds its first and last event times, and before its update
 * the design finds it by the events' time: no invocation knows another's sessions, so it reads the key's session their
 * time falls in, one strongly consistent {@code Query} (descending from the latest event time plus the gap, one item)
 * per batch and session, billed by the item it returns (the session joined, or, for a new one, the key's session before
 * it), digest set and all (DynamoDB bills a {@code Query} by the items' whole size). The conditional update alone
 * cannot do it: its key names the session. Per window, once, the flush: one conditional {@code UpdateItem SET flushed}
 * ({@code attribute_not_exists(flushed)}) with {@code ReturnValues=ALL_NEW}, which hands back the item it flushed with
 * no read units, so the aggregate is emitted without a read; its events go ten to a {@code PutEvents} call.
 *
 * <p>It dedupes in one call per window and batch (no dedupe item per event), so it is the baseline fanin's cost is
 * judged against. What it leaves out favours it: no index or schedule to find the windows to close, no lifetime
 * bound, no watermark, no late-event handling (a late event joins its session silently), sessions never merged, no
 * race between invocations on a key (two that start one session at once would make two items), and the item grows
 * with the window (16 bytes per event: past about 24,000 events it fails in AWS at 400 KB).
 */
public final class CompetentBaseline {

    /** The window table as the design uses it: one conditional add per window and batch. */
    public interface WindowItems {
        /**
         * Adds {@code digests} and their count to the window's item if none of them is in it yet; otherwise writes
         * nothing and returns the digests the item already holds (the condition's ALL_OLD item).
         */
        Set<String> addIfNoneThere(String partitionKey, String windowId, List<String> digests);

        /** Reads the key's session that the batch's events of session {@code windowId} fall in (or the one before it). */
        default void lookUpSession(String partitionKey, String windowId) {
        }
    }

    private final BaselineWindows windowing;
    private final BilledItems items = new BilledItems();
    private long events;

    public CompetentBaseline(Map<String, PipelineConfig> pipelines) {
        this.windowing = new BaselineWindows(pipelines);
    }

    /** One SQS batch as the design's function handles it, on its modelled table. */
    public void acceptBatch(List<Event> batch) {
        events += batch.size();
        acceptBatch(batch, items);
    }

    /** One SQS batch on any {@link WindowItems} (the model's, or a real table in the cross-check). */
    public void acceptBatch(List<Event> batch, WindowItems table) {
        for (Map.Entry<List<String>, List<String>> window : digestsByWindow(batch).entrySet()) {
            List<String> pending = window.getValue();
            if (BaselineWindows.isSession(window.getKey().get(1))) {
                table.lookUpSession(window.getKey().get(0), window.getKey().get(1));
            }
            while (!pending.isEmpty()) {
                Set<String> there = table.addIfNoneThere(window.getKey().get(0), window.getKey().get(1), pending);
                if (there.isEmpty()) {
                    break;
                }
                // The condition failed, so at least one pending digest is there: each retry is shorter.
                pending = pending.stream().filter(d -> !there.contains(d)).toList();
            }
        }
    }

    /** Flushes every window once (a conditional UpdateItem SET flushed that returns the item) and returns the bill. */
    public DynamoDbBill flushAll() {
        items.flushAll();
        return items.bill;
    }

    public long windows() {
        return items.windows.size();
    }

    /** The PutEvents calls of the windows' events: ten a call, as windows closed together are flushed together. */
    public long putEventsCalls() {
        return TimedEmitter.callsFor(windows());
    }

    public long events() {
        return events;
    }

    /** The digests the window items hold: each event counted, as many times as windows count it. */
    public long digestsCounted() {
        return items.windows.values().stream().mapToLong(item -> item.digests.size()).sum();
    }

    public DynamoDbBill bill() {
        return items.bill;
    }

    /** The size of the largest window item so far (DynamoDB refuses an item over 400 KB). */
    public long largestItemBytes() {
        return items.windows.values().stream().mapToLong(BilledItems.Item::bytes).max().orElse(0);
    }

    /** The batch's distinct digests per (partition key, window id), in arrival order. */
    private Map<List<String>, List<String>> digestsByWindow(List<Event> batch) {
        Map<List<String>, Set<String>> byWindow = new LinkedHashMap<>();
        for (Event e : batch) {
            String digest = EventIdDigest.of(e.eventId());
            for (String windowId : windowing.of(e)) {
                byWindow.computeIfAbsent(List.of(BaselineWindows.partitionKey(e), windowId), k -> new LinkedHashSet<>()).add(digest);
            }
        }
        Map<List<String>, List<String>> lists = new LinkedHashMap<>();
        byWindow.forEach((window, digests) -> lists.put(window, new ArrayList<>(digests)));
        return lists;
    }

    /** The modelled table: each window item's digests and size, every call billed. */
    static final class BilledItems implements WindowItems {

        private static final long TTL_BYTES = DynamoDbItemSize.bytes(Map.of("ttl", AttributeValue.fromN("1800000000")));
        /** A session's first and last event times (epoch ms, every digit significant), which its lookup by event time needs. */
        static final long SESSION_BOUNDS_BYTES = DynamoDbItemSize.bytes(Map.of("first", AttributeValue.fromN("1795910412345"),
                "last", AttributeValue.fromN("1795910412345")));

        final DynamoDbBill bill = new DynamoDbBill();
        final Map<List<String>, Item> windows = new HashMap<>();
        /** By partition key: its session items by id. */
        private final Map<String, NavigableMap<Long, Item>> sessions = new HashMap<>();

        @Override
        public void lookUpSession(String partitionKey, String windowId) {
            Item joined = windows.get(List.of(partitionKey, windowId));
            Map.Entry<Long, Item> before = sessions.getOrDefault(partitionKey, new TreeMap<>()).lowerEntry(BaselineWindows.idMillis(windowId));
            long bytes = joined != null ? joined.bytes() : before == null ? 0 : before.getValue().bytes();
            bill.purpose(Purpose.SESSION_LOOKUP);
            bill.call("Query");
            bill.read(CapacityRules.strongReadUnits(bytes));
        }

        @Override
        public Set<String> addIfNoneThere(String partitionKey, String windowId, List<String> digests) {
            Item item = windows.computeIfAbsent(List.of(partitionKey, windowId), k -> created(partitionKey, windowId));
            long before = item.bytes();
            bill.purpose(Purpose.BATCH_UPDATE);
            bill.call("UpdateItem");
            if (digests.stream().anyMatch(item.digests::contains)) {
                bill.write(CapacityRules.writeUnits(before, before));
                return Set.copyOf(item.digests);
            }
            item.digests.addAll(digests);
            bill.write(CapacityRules.writeUnits(before, item.bytes()));
            return Set.of();
        }

        private Item created(String partitionKey, String windowId) {
            Item item = new Item(partitionKey, windowId);
            if (BaselineWindows.isSession(windowId)) {
                sessions.computeIfAbsent(partitionKey, k -> new TreeMap<>()).put(BaselineWindows.idMillis(windowId), item);
            }
            return item;
        }

        void flushAll() {
            for (Item item : windows.values()) {
                if (item.flushed) {
                    continue;
                }
                item.flushed = true;
                bill.purpose(Purpose.FLUSH_WRITE);
                bill.call("UpdateItem");
                bill.write(CapacityRules.writeUnits(item.bytes(), item.bytes() + NaiveBaseline.FLUSHED_BYTES));
            }
        }

        private static long utf8(String text) {
            return text.getBytes(StandardCharsets.UTF_8).length;
        }

        /**
         * pk, sk, cnt (N), ids (SS of digests), ttl (N), and for a session first and last (N); an item with no digest yet
         * is not stored (0 bytes).
         */
        static final class Item {
            final long fixedBytes;
            final Set<String> digests = new HashSet<>();
            boolean flushed;

            Item(String pk, String windowId) {
                this.fixedBytes = utf8("pk") + utf8(pk) + utf8("sk") + utf8(windowId) + TTL_BYTES + utf8("ids")
                        + (BaselineWindows.isSession(windowId) ? SESSION_BOUNDS_BYTES : 0);
            }

            long bytes() {
                if (digests.isEmpty()) {
                    return 0;
                }
                long count = DynamoDbItemSize.bytes(Map.of("cnt", AttributeValue.fromN(Integer.toString(digests.size()))));
                return fixedBytes + count + (long) digests.size() * EventIdDigest.LENGTH;
            }
        }
    }
}
