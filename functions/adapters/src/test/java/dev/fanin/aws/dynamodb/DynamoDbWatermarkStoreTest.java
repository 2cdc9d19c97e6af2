package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.FreshTable;
import dev.fanin.core.port.WatermarkStore.Reading;
import dev.fanin.core.watermark.Backlog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class DynamoDbWatermarkStoreTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final DynamoDbWatermarkStore.Settings FINE = new DynamoDbWatermarkStore.Settings(4, Duration.ofMillis(1), Duration.ofDays(7));
    @RegisterExtension
    static final FreshTable TABLE = new FreshTable("watermarks");

    @Test
    void theCombinedRaiseOnlyPassesWhenNeitherValueGoesDown() {
        UpdateItemRequest both = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 2).raiseBothRequest("alerts", 5, 6);
        assertThat(both.key()).isEqualTo(Map.of("pk", AttributeValue.fromS("M#alerts"), "sk", AttributeValue.fromS("2")));
        assertThat(both.updateExpression()).isEqualTo("SET #maxEt = :t, #lastArr = :a, #ttl = :ttl");
        assertThat(both.conditionExpression())
                .isEqualTo("(attribute_not_exists(#maxEt) OR #maxEt <= :t) AND (attribute_not_exists(#lastArr) OR #lastArr <= :a)");
        assertThat(both.expressionAttributeNames()).isEqualTo(Map.of("#maxEt", "maxEt", "#lastArr", "lastArr", "#ttl", "ttl"));
        assertThat(both.returnValuesOnConditionCheckFailure()).isEqualTo(ReturnValuesOnConditionCheckFailure.ALL_OLD);
        UpdateItemRequest one = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 2).raiseOneRequest("alerts", "maxEt", 9);
        assertThat(one.updateExpression()).isEqualTo("SET #v = :v");
        assertThat(one.conditionExpression()).isEqualTo("attribute_not_exists(#v) OR #v < :v");
    }

    @Test
    void backlogEvidenceIsJoinedToWhatTheShardHoldsSoNoWritersFrontierIsLost() {
        UpdateItemRequest fresh = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 1).backlogRequest("alerts", new Backlog(5, 6),
                BacklogAttribute.unchanged((Backlog) null));
        assertThat(fresh.updateExpression()).isEqualTo("SET #bk = :b, #ttl = if_not_exists(#ttl, :ttl) REMOVE #bkSent, #bkAt");
        assertThat(fresh.conditionExpression()).isEqualTo("attribute_not_exists(#bk) AND attribute_not_exists(#bkAt)");
        assertThat(fresh.expressionAttributeValues()).isEqualTo(Map.of(":b", AttributeValue.fromS("5/6/6"),
                ":ttl", AttributeValue.fromN(Long.toString(WindowItemCodec.ttlSeconds(java.time.Instant.ofEpochMilli(6).plus(Duration.ofDays(7)))))));
        assertThat(fresh.returnValuesOnConditionCheckFailure()).isEqualTo(ReturnValuesOnConditionCheckFailure.ALL_OLD);

        Duration idle = Duration.ofMinutes(5);
        DynamoDbWatermarkStore first = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 1);
        DynamoDbWatermarkStore second = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 1);
        DynamoDbWatermarkStore other = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 2);
        first.advance("alerts", T0, T0);
        assertThat(first.read("alerts").backlogs()).as("a shard without evidence has none").isEmpty();

        // Two writers of shard 1, each having read it before the other wrote: the later sighting keeps the older frontier.
        first.recordBacklog("alerts", new Backlog(1_000, 2_000), idle);
        second.recordBacklog("alerts", new Backlog(5_000, 6_000), idle);
        // Seen earlier than what the shard holds, and an older frontier: joined in too.
        second.recordBacklog("alerts", new Backlog(500, 1_500), idle);
        other.recordBacklog("alerts", new Backlog(800, 2_500), idle);

        Reading r = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 0).read("alerts");
        assertThat(r.backlogs()).containsExactlyInAnyOrder(new Backlog(List.of(new Backlog.Sightings(500, 1_500, 6_000))), new Backlog(800, 2_500));
        assertThat(r.maxEventTime()).isEqualTo(T0);

        // Evidence seen after the shard's episode ended starts a new one.
        long later = 6_000 + idle.toMillis();
        first.recordBacklog("alerts", new Backlog(later - 100, later), idle);
        assertThat(new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 0).read("alerts").backlogs())
                .contains(new Backlog(later - 100, later));
    }

    @Test
    void aShardKeepsTheSightingsOfTwoIntervalsSoTheFrontierCanMove() {
        Duration idle = Duration.ofMinutes(1);
        DynamoDbWatermarkStore store = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 1);
        store.recordBacklog("moving", new Backlog(10_000, 60_000), idle);
        store.recordBacklog("moving", new Backlog(5_000, 100_000), idle);
        store.recordBacklog("moving", new Backlog(90_000, 120_000), idle);
        store.recordBacklog("moving", new Backlog(100_000, 150_000), idle);

        Backlog held = store.read("moving").backlogs().get(0);
        assertThat(held.sightings()).containsExactly(new Backlog.Sightings(5_000, 60_000, 100_000), new Backlog.Sightings(90_000, 120_000, 150_000));
        assertThat(held.capMillis(159_999, idle, Duration.ZERO)).isEqualTo(5_000);
        assertThat(held.capMillis(160_000, idle, Duration.ZERO)).as("the first minute's sightings no longer hold").isEqualTo(90_000);
    }

    @Test
    void anOutagesFloorIsStoredWithItsGroups() {
        Duration idle = Duration.ofMinutes(1);
        DynamoDbWatermarkStore store = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 1);
        Backlog reached = new Backlog(200_000, 300_000).reachingBack(150_000, idle);
        store.recordBacklog("floored", reached, idle);
        assertThat(store.read("floored").backlogs().get(0).floors()).containsExactly(new Backlog.Floor(150_000, 300_000, 300_000));
        store.recordBacklog("floored", new Backlog(120_000, 330_000), idle);

        Backlog held = store.read("floored").backlogs().get(0);
        assertThat(held.floors()).containsExactly(new Backlog.Floor(120_000, 300_000, 330_000));
        assertThat(held.sightings()).containsExactly(new Backlog.Sightings(120_000, 300_000, 330_000));
    }

    /** A shard written before the evidence had groups: read as one group, joined to, and replaced by the new attribute. */
    @Test
    void aShardOfTheOlderLayoutIsJoinedToAndReplaced() {
        Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("M#older"), "sk", AttributeValue.fromS("1"));
        Map<String, AttributeValue> item = new java.util.HashMap<>(key);
        item.putAll(Map.of("bkSent", AttributeValue.fromN("1000"), "bkAt", AttributeValue.fromN("2000")));
        TABLE.client().putItem(r -> r.tableName(TABLE.name()).item(item));
        DynamoDbWatermarkStore store = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 1);
        assertThat(store.read("older").backlogs()).containsExactly(new Backlog(1_000, 2_000));

        store.recordBacklog("older", new Backlog(3_000, 4_000), Duration.ofMinutes(1));

        assertThat(store.read("older").backlogs()).containsExactly(new Backlog(List.of(new Backlog.Sightings(1_000, 2_000, 4_000))));
        assertThat(TABLE.client().getItem(r -> r.tableName(TABLE.name()).key(key).consistentRead(true)).item())
                .containsKey("bk").doesNotContainKeys("bkSent", "bkAt");
    }

    /**
     * SnapStart restores many environments from one snapshot taken after the constructor ran: a shard drawn there
     * would be every restored environment's shard. It is drawn at the first write, after the restore.
     */
    @Test
    void theShardIsDrawnAtTheFirstWriteNotAtConstruction() {
        AtomicLong draws = new AtomicLong();
        DynamoDbWatermarkStore store = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, () -> {
            draws.incrementAndGet();
            return 3;
        });
        store.read("alerts"); // what SnapStart priming does before the snapshot
        assertThat(draws).as("drawn before the snapshot").hasValue(0);

        store.advance("alerts", T0, T0);
        store.advance("alerts", T0.plusSeconds(5), T0.plusSeconds(5));

        assertThat(draws).hasValue(1);
        assertThat(TABLE.client().getItem(r -> r.tableName(TABLE.name()).key(Map.of("pk", AttributeValue.fromS("M#alerts"),
                "sk", AttributeValue.fromS("3")))).hasItem()).isTrue();
    }

    /**
     * A shard that backlog evidence creates before any advance wrote it expires as an advance's would, a retention
     * after the sighting (a review: it had no ttl, and a retired pipeline's shard stayed for good); a shard an advance
     * wrote keeps the ttl that follows its arrivals.
     */
    @Test
    void aShardTheBacklogCreatesExpiresAndOneAnAdvanceWroteKeepsItsTtl() {
        Duration idle = Duration.ofMinutes(5);
        new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 3).recordBacklog("backlog-only", new Backlog(5_000, 6_000), idle);
        DynamoDbWatermarkStore advanced = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 3);
        advanced.advance("advanced", T0, T0);
        advanced.recordBacklog("advanced", new Backlog(5_000, 6_000), idle);

        assertThat(shardItem("backlog-only", 3).get("ttl")).isEqualTo(AttributeValue.fromN(
                Long.toString(WindowItemCodec.ttlSeconds(java.time.Instant.ofEpochMilli(6_000).plus(Duration.ofDays(7))))));
        assertThat(shardItem("advanced", 3).get("ttl")).as("the advance's, following its arrival").isEqualTo(AttributeValue.fromN(
                Long.toString(WindowItemCodec.ttlSeconds(T0.plus(Duration.ofDays(7))))));
    }

    private static Map<String, AttributeValue> shardItem(String pipeline, int shard) {
        return TABLE.client().getItem(r -> r.tableName(TABLE.name()).consistentRead(true).key(Map.of("pk",
                AttributeValue.fromS("M#" + pipeline), "sk", AttributeValue.fromS(Integer.toString(shard))))).item();
    }

    @Test
    void randomlyDrawnShardsSpreadOverTheShards() {
        java.util.Set<Integer> shards = new java.util.HashSet<>();
        for (int i = 0; i < 200; i++) {
            shards.add(new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE).shard());
        }
        assertThat(shards).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void aPipelineThatSawNothingReadsEpoch() {
        Reading reading = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 0).read("alerts");
        assertThat(reading).isEqualTo(new Reading(Instant.EPOCH, Instant.EPOCH));
    }

    @Test
    void readTakesTheMaximumOfEachValueOverShards() {
        new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 0).advance("alerts", T0.plusSeconds(50), T0.plusSeconds(10));
        new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 1).advance("alerts", T0.plusSeconds(20), T0.plusSeconds(90));
        new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 2).advance("other", T0.plusSeconds(999), T0.plusSeconds(999));
        assertThat(new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 3).read("alerts"))
                .isEqualTo(new Reading(T0.plusSeconds(50), T0.plusSeconds(90)));
    }

    @Test
    void anAdvanceThatWouldLowerOneValueRaisesOnlyTheOther() {
        DynamoDbWatermarkStore first = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 0);
        DynamoDbWatermarkStore second = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 0);
        first.advance("alerts", T0.plusSeconds(100), T0.plusSeconds(10));
        second.advance("alerts", T0.plusSeconds(40), T0.plusSeconds(20));
        assertThat(first.read("alerts")).isEqualTo(new Reading(T0.plusSeconds(100), T0.plusSeconds(20)));
        second.advance("alerts", T0.plusSeconds(200), T0.plusSeconds(5));
        assertThat(first.read("alerts")).isEqualTo(new Reading(T0.plusSeconds(200), T0.plusSeconds(20)));
    }

    @Test
    void advancesSmallerThanTheGranularityAreSkippedInMemory() {
        DynamoDbWatermarkStore store = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(),
                new DynamoDbWatermarkStore.Settings(1, Duration.ofSeconds(1), Duration.ofDays(7)), 0);
        store.advance("alerts", T0, T0);
        store.advance("alerts", T0.plusMillis(999), T0.plusMillis(999));
        assertThat(store.read("alerts")).as("999 ms is below the granularity").isEqualTo(new Reading(T0, T0));
        store.advance("alerts", T0.plusMillis(500), T0.plusMillis(1000));
        assertThat(store.read("alerts")).as("one value moved a full second: both written")
                .isEqualTo(new Reading(T0.plusMillis(500), T0.plusMillis(1000)));
    }

    @Test
    void concurrentWritersOnOneShardNeverLowerEitherValue() throws Exception {
        int writers = 3;
        int advances = 25;
        AtomicLong highestT = new AtomicLong();
        AtomicLong highestA = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        List<String> regressions = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
        try {
            Future<?> reader = pool.submit(() -> {
                DynamoDbWatermarkStore store = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 0);
                Reading previous = store.read("alerts");
                while (running.get()) {
                    Reading now = store.read("alerts");
                    if (now.maxEventTime().isBefore(previous.maxEventTime()) || now.lastArrival().isBefore(previous.lastArrival())) {
                        regressions.add(previous + " -> " + now);
                    }
                    previous = now;
                }
            });
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                long seed = w;
                done.add(pool.submit(() -> {
                    DynamoDbWatermarkStore store = new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 0);
                    Random random = new Random(seed);
                    for (int i = 0; i < advances; i++) {
                        // Rising with jitter, so advances often raise one value and would lower the other.
                        long t = i * 1_000L + random.nextInt(5_000);
                        long a = i * 1_000L + random.nextInt(5_000);
                        highestT.accumulateAndGet(t, Math::max);
                        highestA.accumulateAndGet(a, Math::max);
                        store.advance("alerts", T0.plusMillis(t), T0.plusMillis(a));
                    }
                    return null;
                }));
            }
            for (Future<?> writer : done) {
                writer.get();
            }
            running.set(false);
            reader.get();
        } finally {
            pool.shutdownNow();
        }
        assertThat(regressions).isEmpty();
        assertThat(new DynamoDbWatermarkStore(TABLE.client(), TABLE.name(), FINE, 1).read("alerts"))
                .isEqualTo(new Reading(T0.plusMillis(highestT.get()), T0.plusMillis(highestA.get())));
    }
}
