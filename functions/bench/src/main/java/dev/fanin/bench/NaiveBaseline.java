package dev.fanin.bench;

import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowAssigner;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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
 * Per window, once, the flush: a strongly consistent {@code GetItem} and an {@code UpdateItem SET flushed}. Windows
 * are the pipeline's tumbling or sliding windows, or sessions by the pipeline's gap. What the model leaves out
 * favours the baseline: it has no index to find windows to close, no lifetime bound, no watermark and no late-event
 * handling, and an item past 400 KB would simply fail in AWS.
 */
public final class NaiveBaseline {

    private static final long TTL_BYTES = DynamoDbItemSize.bytes(Map.of("ttl", AttributeValue.fromN("1800000000")));

    private final Map<String, PipelineConfig> pipelines;
    private final DynamoDbBill bill = new DynamoDbBill();
    private final Set<String> dedupeIds = new HashSet<>();
    private final Map<String, WindowItem> windows = new HashMap<>();
    private final Map<String, Session> sessions = new HashMap<>();
    private long events;

    public NaiveBaseline(Map<String, PipelineConfig> pipelines) {
        this.pipelines = Map.copyOf(pipelines);
    }

    /** One event as the DIY function would handle it. */
    public void accept(Event event) {
        events++;
        String dedupePk = dedupeKey(event);
        long dedupeBytes = utf8("pk") + utf8(dedupePk) + utf8("sk") + utf8("D") + TTL_BYTES;
        bill.call("PutItem");
        bill.write(CapacityRules.writeUnits(0, dedupeBytes));
        if (!dedupeIds.add(dedupePk)) {
            return;
        }
        for (String windowId : windowIds(event)) {
            String pk = windowKey(event);
            WindowItem item = windows.computeIfAbsent(pk + "\u0000" + windowId, k -> new WindowItem(pk, windowId));
            long before = item.bytes();
            item.add(event.eventId());
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
            bill.call("GetItem");
            bill.read(CapacityRules.strongReadUnits(item.bytes()));
            bill.call("UpdateItem");
            bill.write(CapacityRules.writeUnits(item.bytes(), item.bytes() + utf8("flushed") + 1));
        }
        return bill;
    }

    /** The dedupe item's partition key for an event. */
    public static String dedupeKey(Event event) {
        return "D#" + event.pipeline() + "#" + event.eventId();
    }

    /** The window item's partition key for an event. */
    public static String windowKey(Event event) {
        return "W#" + event.pipeline() + "#" + event.key();
    }

    /** The window ids (sort keys) the event updates, in the baseline's own windowing. */
    public List<String> windowsOf(Event event) {
        return windowIds(event);
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

    private List<String> windowIds(Event event) {
        PipelineConfig config = pipelines.get(event.pipeline());
        long t = event.eventTime().toEpochMilli();
        if (config.window() instanceof WindowSpec.Session session) {
            String sessionKey = event.pipeline() + "\u0000" + event.key();
            long gap = session.gap().toMillis();
            Session current = sessions.get(sessionKey);
            if (current == null || t >= current.last + gap || t < current.first - gap) {
                current = new Session(t);
                sessions.put(sessionKey, current);
            }
            current.first = Math.min(current.first, t);
            current.last = Math.max(current.last, t);
            return List.of("S" + current.id);
        }
        return WindowAssigner.assign(config.window(), t).stream().map(Interval::startMillis).map(start -> "T" + start).toList();
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static final class Session {
        final long id;
        long first;
        long last;

        Session(long t) {
            this.id = t;
            this.first = t;
            this.last = t;
        }
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
