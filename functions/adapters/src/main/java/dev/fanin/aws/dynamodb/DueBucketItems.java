package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.TTL;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.aws.Batches;
import dev.fanin.core.port.WindowStore.DueBucket;
import dev.fanin.core.window.WindowRef;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Due-bucket items (docs/ARCHITECTURE.md, "Data model"): {@code pk = B#<pipeline>#<shard>}, {@code sk = <due time in
 * epoch ms, 13 digits>#<16 random hex digits>} (so a shard's buckets sort by due time and two writers never collide),
 * {@code w} the entries as {@code <window id>#<group key>} (window ids never contain {@code #}; {@code *} stands for
 * every window of the key), and {@code ttl} after the expiry of every window the bucket can list.
 *
 * <p>Public so that the benchmark's cost model sizes exactly the items the adapter writes.
 */
public final class DueBucketItems {

    static final String ENTRIES = "w";
    /**
     * Added to a bucket's TTL beyond the expiry of the windows it lists: DynamoDB deletes expired items up to about 48
     * hours late and in no order, so a bucket must not go before its window.
     */
    static final Duration TTL_MARGIN = Duration.ofDays(2);
    /** Entries per item are cut below DynamoDB's 400 KB item limit. */
    static final int MAX_ENTRY_BYTES = 350_000;

    private DueBucketItems() { }

    /** The entries, encoded and cut into as many items as their size needs. */
    public static List<List<String>> chunks(List<WindowRef> entries) {
        List<String> encoded = entries.stream().map(DueBucketItems::encode).toList();
        // A list element costs its UTF-8 bytes plus one.
        return Batches.of(encoded, Integer.MAX_VALUE, MAX_ENTRY_BYTES, e -> e.getBytes(StandardCharsets.UTF_8).length + 1);
    }

    /**
     * One bucket item, with a fresh random sort-key suffix. Its TTL is {@link #TTL_MARGIN} past {@code expiresAt} (the
     * latest expiry of the windows it lists).
     */
    public static Map<String, AttributeValue> item(String pipeline, int shard, Instant dueAt, List<String> encodedEntries,
                                                   Instant expiresAt, RandomGenerator random) {
        return item(pipeline, shard, String.format("%013d#%016x", dueAt.toEpochMilli(), random.nextLong()), encodedEntries, expiresAt);
    }

    /** The item as stored for a bucket read back (its TTL derived from its due time: the same length), for sizing its delete. */
    public static Map<String, AttributeValue> itemOf(DueBucket bucket) {
        return item(bucket.pipeline(), bucket.shard(), bucket.id(), bucket.entries().stream().map(DueBucketItems::encode).toList(),
                bucket.dueAt());
    }

    private static Map<String, AttributeValue> item(String pipeline, int shard, String sk, List<String> encodedEntries, Instant expiresAt) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(PK, s(WindowKeys.dueBucketPk(pipeline, shard)));
        item.put(SK, s(sk));
        item.put(ENTRIES, AttributeValue.fromL(encodedEntries.stream().map(WindowItemCodec::s).toList()));
        item.put(TTL, n(WindowItemCodec.ttlSeconds(expiresAt.plus(TTL_MARGIN))));
        return item;
    }

    /** An exclusive upper bound for the sort keys of the buckets due at or before {@code dueBy}. */
    static String skBound(Instant dueBy) {
        // '$' sorts right after '#': every sort key of a bucket due at dueBy is below this, every later one above.
        return String.format("%013d$", dueBy.toEpochMilli());
    }

    static DueBucket bucket(String pipeline, int shard, Map<String, AttributeValue> item) {
        String sk = item.get(SK).s();
        Instant dueAt = Instant.ofEpochMilli(Long.parseLong(sk.substring(0, sk.indexOf('#'))));
        List<WindowRef> entries = new ArrayList<>();
        AttributeValue listed = item.get(ENTRIES);
        if (listed != null && listed.hasL()) {
            for (AttributeValue entry : listed.l()) {
                entries.add(decode(pipeline, entry.s()));
            }
        }
        return new DueBucket(pipeline, shard, sk, dueAt, entries);
    }

    static String encode(WindowRef entry) {
        return entry.windowId() + "#" + entry.key();
    }

    static WindowRef decode(String pipeline, String encoded) {
        int separator = encoded.indexOf('#');
        if (separator <= 0) {
            throw new IllegalArgumentException("due bucket entry " + encoded + " is not <window id>#<key>");
        }
        return new WindowRef(pipeline, encoded.substring(separator + 1), encoded.substring(0, separator));
    }

}
