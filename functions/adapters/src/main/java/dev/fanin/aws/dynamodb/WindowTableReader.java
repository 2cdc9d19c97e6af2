package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.STATUS;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WindowStore.DueBucket;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The table read the way tools need it ({@code fanin windows}, {@code replay}, {@code local}): window heads page by
 * page across keys, one window with its slices, the due buckets that list a window. The only reader of the item layout
 * besides the store itself: everything it returns is a {@link StoredWindow} or a {@link DueBucket}, whose state the
 * core decodes.
 *
 * <p>Listing across keys is a {@code Scan}: the table is keyed by pipeline and group key, with no index of windows.
 * A page is bounded by reads, not by results: {@link #heads} issues at most {@code maxReads} Scan requests of at most
 * {@code pageSize} items each (eventually consistent), whatever the table's size, and returns a cursor to go on.
 */
public final class WindowTableReader {

    private static final int CURSOR_FORMAT = 1;

    private final DynamoDbClient dynamo;
    private final String table;
    private final DynamoDbWindowStore store;

    public WindowTableReader(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.store = new DynamoDbWindowStore(dynamo, table, DynamoDbWindowStore.Settings.defaults());
    }

    /**
     * One page of window heads (of every pipeline, or of one), with the id tail of the head only: enough to show a
     * window, not to dedupe against it. A session key's live item counts as one item and yields each of its accepting
     * (or first-claimed) sessions, so a page may hold a few more windows than {@code pageSize}.
     *
     * @param windows   the heads found, at most {@code pageSize}
     * @param cursor    where the next page starts; empty at the end of the table
     * @param reads     Scan requests made
     * @param itemsRead items the requests read (heads, slices, buckets, counters), what read units are charged for
     */
    public record HeadPage(List<StoredWindow> windows, Optional<String> cursor, int reads, long itemsRead) { }

    /**
     * @param pipeline only this pipeline's windows; empty for all
     * @param statuses only windows in these statuses (filtered by DynamoDB: filtered items still count as read)
     * @param cursor   a {@link HeadPage#cursor()} of an earlier page, or empty for the first page
     * @param pageSize heads wanted, and the item limit of each Scan request (1 to 1000)
     * @param maxReads at most this many Scan requests (at least 1)
     * @throws IllegalArgumentException for a cursor this class did not produce, or a bad size
     */
    public HeadPage heads(Optional<String> pipeline, Set<WindowStatus> statuses, Optional<String> cursor, int pageSize, int maxReads) {
        if (pageSize < 1 || pageSize > 1000 || maxReads < 1) {
            throw new IllegalArgumentException("page size must be 1 to 1000 and reads at least 1, were " + pageSize + " and " + maxReads);
        }
        List<StoredWindow> windows = new ArrayList<>();
        Map<String, AttributeValue> start = cursor.map(WindowTableReader::decodeCursor).orElse(null);
        int reads = 0;
        long itemsRead = 0;
        do {
            ScanResponse page = dynamo.scan(headScan(pipeline, statuses, start, pageSize - windows.size()));
            reads++;
            itemsRead += page.scannedCount();
            page.items().forEach(item -> WindowItemCodec.windowsIn(item).stream().filter(w -> statuses.contains(w.status())).forEach(windows::add));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null && windows.size() < pageSize && reads < maxReads);
        return new HeadPage(windows, Optional.ofNullable(start).map(WindowTableReader::encodeCursor), reads, itemsRead);
    }

    /** Every window head of the table, page by page: for small local tables (replay, {@code fanin local}). */
    public void forEachHead(Consumer<StoredWindow> each) {
        Optional<String> cursor = Optional.empty();
        do {
            HeadPage page = heads(Optional.empty(), EnumSet.allOf(WindowStatus.class), cursor, 1000, 1);
            page.windows().forEach(each);
            cursor = page.cursor();
        } while (cursor.isPresent());
    }

    /**
     * One window with its slices (every event id), strongly consistent, as the functions load it: a session still in
     * its key's live item from there (that copy is authoritative), any other window from its own items.
     */
    public Optional<StoredWindow> window(WindowRef ref) {
        Optional<StoredWindow> live = ref.windowId().startsWith("S")
                ? store.loadLive(ref.pipeline(), ref.key()).session(ref.windowId()) : Optional.empty();
        return live.isPresent() ? live : store.load(ref);
    }

    /**
     * The due buckets of {@code pipeline} in shards {@code [fromShard, toShard)} that list {@code ref}, by its window id
     * or by its key ({@code *#key}, a session pipeline's entry), earliest first: one Query per shard. Shards at or past
     * the deployment's {@code DueShards} hold what a deployment with more shards left (the sweeper's hourly run reads them).
     */
    public List<DueBucket> listings(WindowRef ref, int fromShard, int toShard) {
        if (fromShard < 0 || toShard > WindowStore.MAX_DUE_SHARDS || fromShard > toShard) {
            throw new IllegalArgumentException("shards [" + fromShard + ", " + toShard + ") outside [0, " + WindowStore.MAX_DUE_SHARDS + ")");
        }
        List<DueBucket> found = new ArrayList<>();
        for (int s = fromShard; s < toShard; s++) {
            int shard = s;
            forEachItem(bucketQuery(ref.pipeline(), shard), item -> {
                DueBucket bucket = DueBucketItems.bucket(ref.pipeline(), shard, item);
                boolean lists = bucket.entries().stream().anyMatch(e -> e.key().equals(ref.key())
                        && (e.windowId().equals(ref.windowId()) || e.windowId().equals("*")));
                if (lists) {
                    found.add(bucket);
                }
            });
        }
        found.sort((a, b) -> a.dueAt().compareTo(b.dueAt()));
        return found;
    }

    /** The earliest due time of any due bucket of the table (one Scan: for small local tables). */
    public Optional<Instant> earliestDueBucket() {
        long[] earliest = {Long.MAX_VALUE};
        Map<String, AttributeValue> start = null;
        do {
            ScanResponse page = dynamo.scan(ScanRequest.builder().tableName(table).exclusiveStartKey(start)
                    .filterExpression("begins_with(#pk, :b)").expressionAttributeNames(Map.of("#pk", PK))
                    .expressionAttributeValues(Map.of(":b", s("B#"))).build());
            for (Map<String, AttributeValue> item : page.items()) {
                String sk = item.get(SK).s();
                earliest[0] = Math.min(earliest[0], Long.parseLong(sk.substring(0, sk.indexOf('#'))));
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return earliest[0] == Long.MAX_VALUE ? Optional.empty() : Optional.of(Instant.ofEpochMilli(earliest[0]));
    }

    /**
     * Window heads have a status; slices, buckets, counters and watermark shards do not. A live item holds its
     * sessions' statuses inside it, so it is always returned and its sessions filtered here.
     */
    ScanRequest headScan(Optional<String> pipeline, Set<WindowStatus> statuses, Map<String, AttributeValue> start, int limit) {
        if (statuses.isEmpty()) {
            throw new IllegalArgumentException("no status to list");
        }
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":w", s(pipeline.map(WindowKeys::windowPkPrefix).orElse("W#")));
        values.put(":live", s(LiveItemCodec.LIVE_SK));
        List<String> placeholders = new ArrayList<>();
        for (WindowStatus status : statuses) {
            placeholders.add(":s" + status.ordinal());
            values.put(":s" + status.ordinal(), s(status.name()));
        }
        return ScanRequest.builder()
                .tableName(table)
                .filterExpression("begins_with(#pk, :w) AND (#sk = :live OR #st IN (" + String.join(", ", placeholders) + "))")
                .expressionAttributeNames(Map.of("#pk", PK, "#sk", SK, "#st", STATUS))
                .expressionAttributeValues(values)
                .limit(limit)
                .exclusiveStartKey(start)
                .build();
    }

    private QueryRequest bucketQuery(String pipeline, int shard) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", PK))
                .expressionAttributeValues(Map.of(":pk", s(WindowKeys.dueBucketPk(pipeline, shard))))
                .build();
    }

    private void forEachItem(QueryRequest request,
                             Consumer<Map<String, AttributeValue>> each) {
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = dynamo.query(request.toBuilder().exclusiveStartKey(start).build());
            page.items().forEach(each);
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
    }

    static String encodeCursor(Map<String, AttributeValue> lastEvaluatedKey) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(CURSOR_FORMAT);
            out.writeUTF(lastEvaluatedKey.get(PK).s());
            out.writeUTF(lastEvaluatedKey.get(SK).s());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray());
    }

    static Map<String, AttributeValue> decodeCursor(String cursor) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Base64.getUrlDecoder().decode(cursor)))) {
            if (in.readByte() != CURSOR_FORMAT) {
                throw new IllegalArgumentException("unknown cursor format");
            }
            return Map.of(PK, s(in.readUTF()), SK, s(in.readUTF()));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a window page cursor: " + cursor);
        }
    }
}
