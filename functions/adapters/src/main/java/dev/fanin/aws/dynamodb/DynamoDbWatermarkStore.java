package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.TTL;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.watermark.Backlog;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.IntSupplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link WatermarkStore} on the window table: items {@code pk=M#<pipeline>}, {@code sk=<shard>} holding
 * {@code maxEt} (newest event time, epoch ms) and {@code lastArr} (latest arrival, epoch ms), and, once this shard's
 * writer has seen the queue behind, {@code bk}: its {@link Backlog} evidence ({@link BacklogAttribute}).
 *
 * <p>Invariant: neither value of a shard is ever lowered, whatever writers race. An advance first tries one
 * update that sets both under the condition that neither would go down ({@code <=} against each); when that fails
 * (one value would go down), it reads the shard's values from the failed condition ({@code ALL_OLD}) and raises
 * each value that is still behind with its own strictly-raising conditional update. A raising update that then
 * fails means another writer got there first with a higher value, which is the goal anyway.
 *
 * <p>Each instance writes one shard, drawn at random (by {@link SecureRandom}) at its first write, so concurrent
 * ingest invocations rarely contend on an item. Not at construction: a SnapStart snapshot is taken after the
 * constructor ran, and every environment restored from it would write the shard drawn before it (and the restored
 * environments share a {@code ThreadLocalRandom} seed too, which {@code SecureRandom} does not); it skips, in memory, advances where neither value moved by at least the granularity since
 * its last write. The core's watermark formula tolerates that lag. {@code ttl} follows {@code lastArr} plus the
 * pipeline's retention (the settings' one, or longer for a pipeline whose windows may stay open longer, see
 * {@link #DynamoDbWatermarkStore(DynamoDbClient, String, Settings, Function)}), so an abandoned pipeline's shards
 * expire, and never while a window of it may still wait for its watermark.
 *
 * <p>Backlog evidence is written only by batches that were behind (no write in healthy operation): joined to what the
 * shard holds by a compare-and-set ({@link #recordBacklog}), skipped when this instance wrote a frontier as old less
 * than the granularity before.
 */
public final class DynamoDbWatermarkStore implements WatermarkStore {

    /**
     * @param shards      watermark items per pipeline
     * @param granularity smallest advance worth a write
     * @param retention   how long after the latest arrival a shard item is kept
     */
    public record Settings(int shards, Duration granularity, Duration retention) {

        public Settings {
            if (shards < 1) {
                throw new IllegalArgumentException("shards must be at least 1, was " + shards);
            }
            Objects.requireNonNull(granularity, "granularity");
            Objects.requireNonNull(retention, "retention");
        }

        public static Settings defaults() {
            return new Settings(8, Duration.ofSeconds(1), Duration.ofDays(7));
        }

        /**
         * Whether backlog evidence this instance {@code written} (null: none) makes writing {@code backlog} needless
         * ({@link Backlog#covers}: no older frontier, seen again within the granularity, so the hold ends at most that
         * much early). The bench's meter bills by the same rule.
         */
        public boolean covers(Backlog written, Backlog backlog, Duration idleAfter) {
            return written != null && written.covers(backlog, granularity, idleAfter);
        }
    }

    static final String MAX_EVENT_TIME = "maxEt";
    static final String LAST_ARRIVAL = "lastArr";
    static final String RAISE_BOTH_UPDATE = "SET #maxEt = :t, #lastArr = :a, #ttl = :ttl";
    static final String RAISE_BOTH_CONDITION =
            "(attribute_not_exists(#maxEt) OR #maxEt <= :t) AND (attribute_not_exists(#lastArr) OR #lastArr <= :a)";
    static final String RAISE_ONE_CONDITION = "attribute_not_exists(#v) OR #v < :v";
    /** A shard the evidence creates (no advance wrote it yet) expires as one an advance writes at its sighting. */
    static final String BACKLOG_UPDATE = "SET #bk = :b, #ttl = if_not_exists(#ttl, :ttl) REMOVE #bkSent, #bkAt";
    /** Joins tried against a shard that keeps changing under other writers before the batch fails, to be retried. */
    static final int BACKLOG_ATTEMPTS = 8;

    private final DynamoDbClient dynamo;
    private final String table;
    private final Settings settings;
    private final IntSupplier drawShard;
    /** Per pipeline, how long after its latest arrival its shards must be kept at least (beyond the retention). */
    private final Function<String, Duration> keepFor;
    /** The shard this instance writes, drawn at its first write; -1 before. */
    private volatile int shard = -1;
    /** Per pipeline, values this instance knows its shard holds at least. */
    private final Map<String, Reading> known = new ConcurrentHashMap<>();
    /** Per pipeline, the backlog evidence this instance last wrote. */
    private final Map<String, Backlog> knownBacklog = new ConcurrentHashMap<>();

    /** Writes a shard drawn at random at its first write. */
    public DynamoDbWatermarkStore(DynamoDbClient dynamo, String table, Settings settings) {
        this(dynamo, table, settings, () -> new SecureRandom().nextInt(settings.shards()));
    }

    /**
     * Writes a shard drawn at random at its first write, and keeps a pipeline's shards at least {@code keepFor} of it
     * after its latest arrival: a window of it may wait for the watermark (its idle advance) that long, and a shard
     * expired under it leaves the pipeline without a watermark, so the window closes only at its hard deadline.
     */
    public DynamoDbWatermarkStore(DynamoDbClient dynamo, String table, Settings settings, Function<String, Duration> keepFor) {
        this(dynamo, table, settings, () -> new SecureRandom().nextInt(settings.shards()), keepFor);
    }

    /** Writes the given shard (tests, and callers that derive the shard themselves). */
    public DynamoDbWatermarkStore(DynamoDbClient dynamo, String table, Settings settings, int shard) {
        this(dynamo, table, settings, () -> shard);
        if (shard < 0 || shard >= settings.shards()) {
            throw new IllegalArgumentException("shard " + shard + " outside [0, " + settings.shards() + ")");
        }
    }

    /** @param drawShard the shard to write, asked once, at the first write */
    DynamoDbWatermarkStore(DynamoDbClient dynamo, String table, Settings settings, IntSupplier drawShard) {
        this(dynamo, table, settings, drawShard, pipeline -> Duration.ZERO);
    }

    private DynamoDbWatermarkStore(DynamoDbClient dynamo, String table, Settings settings, IntSupplier drawShard,
                                   Function<String, Duration> keepFor) {
        this.keepFor = Objects.requireNonNull(keepFor, "keepFor");
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.drawShard = Objects.requireNonNull(drawShard, "drawShard");
    }

    /** The shard this instance writes, drawn now if it has not written yet. */
    public int shard() {
        int drawn = shard;
        if (drawn < 0) {
            synchronized (this) {
                if (shard < 0) {
                    shard = drawShard.getAsInt();
                }
                drawn = shard;
            }
        }
        return drawn;
    }

    @Override
    public Reading read(String pipeline) {
        QueryRequest request = QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", PK))
                .expressionAttributeValues(Map.of(":pk", s(WindowKeys.watermarkPk(pipeline))))
                .consistentRead(true)
                .build();
        long maxEventTime = 0;
        long lastArrival = 0;
        List<Backlog> backlogs = new ArrayList<>();
        for (Map<String, AttributeValue> item : QueryPages.all(dynamo, request, "watermark read")) {
            maxEventTime = Math.max(maxEventTime, millis(item, MAX_EVENT_TIME));
            lastArrival = Math.max(lastArrival, millis(item, LAST_ARRIVAL));
            BacklogAttribute.decode(item).ifPresent(backlogs::add);
        }
        return new Reading(Instant.ofEpochMilli(maxEventTime), Instant.ofEpochMilli(lastArrival), backlogs);
    }

    /**
     * A compare-and-set loop: the evidence is joined to what the shard holds (first what this instance last wrote,
     * then what a failed condition returns) and written only if the shard still holds that, so no writer's older
     * frontier is lost to another's later sighting.
     */
    @Override
    public void recordBacklog(String pipeline, Backlog backlog, Duration idleAfter) {
        Backlog written = knownBacklog.get(pipeline);
        if (settings.covers(written, backlog, idleAfter)) {
            return;
        }
        Optional<Backlog> held = Optional.ofNullable(written);
        BacklogAttribute.Unchanged unchanged = BacklogAttribute.unchanged(written);
        for (int attempt = 0; attempt < BACKLOG_ATTEMPTS; attempt++) {
            Backlog joined = held.map(h -> Backlog.joined(h, backlog, idleAfter)).orElse(backlog);
            if (held.isPresent() && joined.equals(held.get())) {
                knownBacklog.put(pipeline, joined);
                return;
            }
            try {
                dynamo.updateItem(backlogRequest(pipeline, joined, unchanged));
                knownBacklog.put(pipeline, joined);
                return;
            } catch (ConditionalCheckFailedException changed) {
                held = BacklogAttribute.decode(changed.item());
                unchanged = BacklogAttribute.unchanged(changed.item());
            } catch (SdkException e) {
                throw DynamoDbFailures.translate("watermark backlog", e);
            }
        }
        throw new StoreUnavailableException("watermark backlog: shard " + shard() + " of pipeline " + pipeline + " changed under "
                + BACKLOG_ATTEMPTS + " joins in a row", null);
    }

    /** Sets the evidence if the shard still holds what it was joined to, and drops the older layout's attributes. */
    UpdateItemRequest backlogRequest(String pipeline, Backlog backlog, BacklogAttribute.Unchanged unchanged) {
        Map<String, AttributeValue> values = new HashMap<>(unchanged.values());
        values.put(":b", s(BacklogAttribute.encode(backlog)));
        values.put(":ttl", n(ttlSeconds(pipeline, backlog.seenAtMillis())));
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(shardKey(pipeline))
                .updateExpression(BACKLOG_UPDATE)
                .conditionExpression(unchanged.condition())
                .expressionAttributeNames(Map.of("#bk", BacklogAttribute.NAME, "#bkSent", BacklogAttribute.LEGACY_SENT,
                        "#bkAt", BacklogAttribute.LEGACY_AT, "#ttl", TTL))
                .expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build();
    }

    @Override
    public void advance(String pipeline, Instant maxEventTime, Instant lastArrival) {
        Reading before = known.get(pipeline);
        long t = maxEventTime.toEpochMilli();
        long a = lastArrival.toEpochMilli();
        if (before != null) {
            long granularity = settings.granularity().toMillis();
            long knownT = before.maxEventTime().toEpochMilli();
            long knownA = before.lastArrival().toEpochMilli();
            if (t < knownT + granularity && a < knownA + granularity) {
                return;
            }
            t = Math.max(t, knownT);
            a = Math.max(a, knownA);
        }
        try {
            raise(pipeline, t, a);
        } catch (SdkException e) {
            throw DynamoDbFailures.translate("watermark advance", e);
        }
    }

    private void raise(String pipeline, long t, long a) {
        try {
            dynamo.updateItem(raiseBothRequest(pipeline, t, a));
            remember(pipeline, t, a);
            return;
        } catch (ConditionalCheckFailedException oneWouldGoDown) {
            Map<String, AttributeValue> current = oneWouldGoDown.hasItem() ? oneWouldGoDown.item() : Map.of();
            long currentT = current.containsKey(MAX_EVENT_TIME) ? millis(current, MAX_EVENT_TIME) : Long.MIN_VALUE;
            long currentA = current.containsKey(LAST_ARRIVAL) ? millis(current, LAST_ARRIVAL) : Long.MIN_VALUE;
            if (t > currentT) {
                raiseOne(pipeline, MAX_EVENT_TIME, t);
            }
            if (a > currentA) {
                raiseOne(pipeline, LAST_ARRIVAL, a);
            }
            remember(pipeline, Math.max(t, currentT), Math.max(a, currentA));
        }
    }

    private void raiseOne(String pipeline, String attribute, long value) {
        try {
            dynamo.updateItem(raiseOneRequest(pipeline, attribute, value));
        } catch (ConditionalCheckFailedException alreadyHigher) {
            // Another writer raised it at least as far: the invariant holds and there is nothing left to do.
        }
    }

    private void remember(String pipeline, long t, long a) {
        known.merge(pipeline, new Reading(Instant.ofEpochMilli(t), Instant.ofEpochMilli(a)), (old, fresh) -> new Reading(
                later(old.maxEventTime(), fresh.maxEventTime()), later(old.lastArrival(), fresh.lastArrival())));
    }

    UpdateItemRequest raiseBothRequest(String pipeline, long t, long a) {
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(shardKey(pipeline))
                .updateExpression(RAISE_BOTH_UPDATE)
                .conditionExpression(RAISE_BOTH_CONDITION)
                .expressionAttributeNames(Map.of("#maxEt", MAX_EVENT_TIME, "#lastArr", LAST_ARRIVAL, "#ttl", TTL))
                .expressionAttributeValues(Map.of(":t", n(t), ":a", n(a), ":ttl", n(ttlSeconds(pipeline, a))))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build();
    }

    /** Raises one value; raising {@code lastArr} also moves {@code ttl}, which follows it. */
    UpdateItemRequest raiseOneRequest(String pipeline, String attribute, long value) {
        UpdateItemRequest.Builder request = UpdateItemRequest.builder()
                .tableName(table)
                .key(shardKey(pipeline))
                .conditionExpression(RAISE_ONE_CONDITION);
        if (!LAST_ARRIVAL.equals(attribute)) {
            request.updateExpression("SET #v = :v")
                    .expressionAttributeNames(Map.of("#v", attribute))
                    .expressionAttributeValues(Map.of(":v", n(value)));
        } else {
            request.updateExpression("SET #v = :v, #ttl = :ttl")
                    .expressionAttributeNames(Map.of("#v", attribute, "#ttl", TTL))
                    .expressionAttributeValues(Map.of(":v", n(value), ":ttl", n(ttlSeconds(pipeline, value))));
        }
        return request.build();
    }

    private long ttlSeconds(String pipeline, long arrivalMillis) {
        Duration needed = keepFor.apply(pipeline);
        Duration kept = needed.compareTo(settings.retention()) > 0 ? needed : settings.retention();
        return WindowItemCodec.ttlSeconds(Instant.ofEpochMilli(arrivalMillis).plus(kept));
    }

    private Map<String, AttributeValue> shardKey(String pipeline) {
        return Map.of(PK, s(WindowKeys.watermarkPk(pipeline)), SK, s(Integer.toString(shard())));
    }

    private static long millis(Map<String, AttributeValue> item, String attribute) {
        AttributeValue value = item.get(attribute);
        return value == null ? 0 : Long.parseLong(value.n());
    }

    private static Instant later(Instant x, Instant y) {
        return x.isAfter(y) ? x : y;
    }
}
