package dev.fanin.bench;

import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The do-it-yourself pattern of the common samples, as a cost model over the same event stream, billed by the same
 * {@link CapacityRules}. Per event, in arrival order:
 * <ol>
 *   <li>a dedupe {@code PutItem} of {@code pk=D#<pipeline>#<eventId>, sk=D} with a TTL, conditional on
 *       {@code attribute_not_exists(pk)} (charged even when the condition fails, as DynamoDB does);</li>
 *   <li>when new, one {@code UpdateItem} of the window item: {@code ADD cnt :one, ids :id} (a string set of the raw
 *       event ids), so the item grows with the window and every update costs a unit per started KB of it.</li>
 * </ol>
 * Per window, once, the samples' flush: a strongly consistent {@code GetItem}, an {@code UpdateItem SET flushed} and a
 * {@code PutEvents} of its own (the read-free flush of {@link CompetentBaseline} is the stronger design's, not the
 * samples'). Windows are {@link BaselineWindows}', its sessions found in the bench's memory at no cost (a real
 * function would have to read them). What the model leaves out favours the baseline: it has no index to find windows
 * to close, no lifetime bound, no watermark and no late-event handling, and an item past 400 KB would simply fail in
 * AWS.
 */
public final class NaiveBaseline {

    private static final long TTL_BYTES = DynamoDbItemSize.bytes(Map.of("ttl", AttributeValue.fromN("1800000000")));
    /** The flushed flag a flush sets (a BOOL). */
    static final long FLUSHED_BYTES = DynamoDbItemSize.bytes(Map.of("flushed", AttributeValue.fromBool(true)));

    private final BaselineWindows windowing;
    private final DynamoDbBill bill = new DynamoDbBill();
    private final Set<String> dedupeIds = new HashSet<>();
    private final Map<String, WindowItem> windows = new HashMap<>();
    private long events;

    public NaiveBaseline(Map<String, PipelineConfig> pipelines) {
        this.windowing = new BaselineWindows(pipelines);
    }

    /** One event as the DIY function would handle it. */
    public void accept(Event event) {
        events++;
        String dedupePk = dedupeKey(event);
        long dedupeBytes = utf8("pk") + utf8(dedupePk) + utf8("sk") + utf8("D") + TTL_BYTES;
        bill.purpose(Purpose.DEDUPE_PUT);
        bill.call("PutItem");
        bill.write(CapacityRules.writeUnits(0, dedupeBytes));
        if (!dedupeIds.add(dedupePk)) {
            return;
        }
        for (String windowId : windowing.of(event)) {
            String pk = BaselineWindows.partitionKey(event);
            WindowItem item = windows.computeIfAbsent(pk + "\u0000" + windowId, k -> new WindowItem(pk, windowId));
            long before = item.bytes();
            item.add(event.eventId());
            bill.purpose(Purpose.WINDOW_UPDATE);
            bill.call("UpdateItem");
            bill.write(CapacityRules.writeUnits(before, item.bytes()));
        }
    }

    /** Flushes every window once (GetItem, then UpdateItem SET flushed) and returns the bill. */
    public DynamoDbBill flushAll() {
        for (WindowItem item : windows.values()) {
            if (item.flushed) {
                continue;
            }
            item.flushed = true;
            billFlush(item.bytes());
        }
        return bill;
    }

    /** The samples' flush of a window item of {@code bytes}: a strongly consistent GetItem, an UpdateItem SET flushed. */
    private void billFlush(long bytes) {
        bill.purpose(Purpose.FLUSH_READ);
        bill.call("GetItem");
        bill.read(CapacityRules.strongReadUnits(bytes));
        bill.purpose(Purpose.FLUSH_WRITE);
        bill.call("UpdateItem");
        bill.write(CapacityRules.writeUnits(bytes, bytes + FLUSHED_BYTES));
    }

    /** The dedupe item's partition key for an event. */
    public static String dedupeKey(Event event) {
        return "D#" + event.pipeline() + "#" + event.eventId();
    }

    public long windows() {
        return windows.size();
    }

    public long events() {
        return events;
    }

    public DynamoDbBill bill() {
        return bill;
    }

    /** The size of the largest window item so far (DynamoDB refuses an item over 400 KB). */
    public long largestItemBytes() {
        return windows.values().stream().mapToLong(WindowItem::bytes).max().orElse(0);
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The growing window item: pk, sk, cnt (N), ids (SS), ttl (N). */
    private static final class WindowItem {
        final long fixedBytes;
        final Set<String> ids = new HashSet<>();
        long idBytes;
        boolean flushed;

        WindowItem(String pk, String windowId) {
            this.fixedBytes = utf8("pk") + utf8(pk) + utf8("sk") + utf8(windowId) + TTL_BYTES + utf8("ids");
        }

        void add(String eventId) {
            if (ids.add(eventId)) {
                idBytes += utf8(eventId);
            }
        }

        long bytes() {
            long count = DynamoDbItemSize.bytes(Map.of("cnt", AttributeValue.fromN(Long.toString(ids.size()))));
            return fixedBytes + count + idBytes;
        }
    }
}
