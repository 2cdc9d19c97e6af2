package dev.fanin.core.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.WatermarkSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BacklogTest {

    /** Out-of-orderness 10 s, idle after 30 s. */
    private static final WatermarkSpec SPEC = new WatermarkSpec(Duration.ofSeconds(10), Duration.ofSeconds(30));
    private static final Duration IDLE = SPEC.idleAfter();

    @ParameterizedTest(name = "out of the queue {0} ms after it was sent: behind {1}")
    @CsvSource({"0, false", "9999, false", "10000, false", "11000, false", "11001, true", "600000, true"})
    void aMessageIsBehindWhenItWaitedInTheQueueLongerThanOutOfOrdernessAndTheQueuesLatency(long waited, boolean behind) {
        assertThat(Backlog.behind(1_000_000, 1_000_000 + waited, SPEC.outOfOrderness())).isEqualTo(behind);
    }

    @ParameterizedTest(name = "{0} ms after the last behind message: holds {1}")
    @CsvSource({"0, true", "29999, true", "30000, false"})
    void anEpisodeHoldsUntilNoBehindMessageCameForIdleAfter(long after, boolean holds) {
        long cap = new Backlog(100_000, 1_000_000).capMillis(1_000_000 + after, IDLE, SPEC.outOfOrderness());
        assertThat(cap != Long.MAX_VALUE).isEqualTo(holds);
    }

    /** The start of an interval of idleAfter (30 s): sightings from T to T + 29 999 ms are one group. */
    private static final long T = 990_000;

    @Test
    void theCapIsTheFrontierMinusOutOfOrderness() {
        assertThat(new Backlog(100_000, 1_000_000).capMillis(1_000_000, IDLE, SPEC.outOfOrderness())).isEqualTo(90_000);
    }

    @Test
    void sightingsInOneIntervalAreOneGroupWithTheOlderFrontier() {
        Backlog first = new Backlog(100_000, T);
        assertThat(Backlog.joined(first, new Backlog(200_000, T + 29_999), IDLE))
                .isEqualTo(new Backlog(List.of(new Backlog.Sightings(100_000, T, T + 29_999))));
        assertThat(Backlog.joined(first, new Backlog(50_000, T + 10_000), IDLE))
                .isEqualTo(new Backlog(List.of(new Backlog.Sightings(50_000, T, T + 10_000))));
    }

    @ParameterizedTest(name = "at T + {0} ms the cap is {1}")
    @CsvSource({
            "30000, 90000",          // the first interval's group (oldest sent 100 s) was last seen 10 s ago
            "49999, 90000",          // ... and holds until idleAfter after that
            "50000, 190000",         // then the later group alone: oldest sent 200 s
            "59999, 190000",
            "60000, " + Long.MAX_VALUE, // nothing seen for idleAfter: no cap
    })
    void theFrontierMovesWhenTheOlderSightingsStopHolding(long after, long cap) {
        Backlog first = Backlog.joined(new Backlog(100_000, T), new Backlog(150_000, T + 20_000), IDLE);
        Backlog both = Backlog.joined(first, new Backlog(200_000, T + 30_000), IDLE);
        assertThat(both.sightings()).hasSize(2);
        assertThat(both.capMillis(T + after, IDLE, SPEC.outOfOrderness())).isEqualTo(cap);
    }

    @Test
    void aQueueThatStaysBehindMovesTheCapWithIt() {
        // One behind message every 5 s for an hour, each sent 20 s before it was seen.
        Backlog held = new Backlog(T - 20_000, T);
        for (long seen = T + 5_000; seen <= T + 3_600_000; seen += 5_000) {
            held = Backlog.joined(held, new Backlog(seen - 20_000, seen), IDLE);
            assertThat(held.sightings()).hasSizeLessThanOrEqualTo(2);
            long cap = held.capMillis(seen, IDLE, SPEC.outOfOrderness());
            assertThat(cap).as("at T + %d ms", seen - T)
                    .isGreaterThanOrEqualTo(seen - 20_000 - 2 * IDLE.toMillis() - SPEC.outOfOrderness().toMillis())
                    .isLessThanOrEqualTo(seen - 20_000 - SPEC.outOfOrderness().toMillis());
        }
    }

    @Test
    void evidenceAfterTheEpisodeEndedStartsANewOne() {
        Backlog first = new Backlog(100_000, T);
        assertThat(Backlog.joined(first, new Backlog(200_000, T + 30_000), IDLE)).isEqualTo(new Backlog(200_000, T + 30_000));
    }

    @Test
    void evidenceJoinedInEitherOrderIsTheSame() {
        Backlog earlier = new Backlog(100_000, T);
        Backlog later = new Backlog(200_000, T + 29_999);
        Backlog nextInterval = new Backlog(150_000, T + 35_000);
        assertThat(Backlog.joined(later, earlier, IDLE)).isEqualTo(Backlog.joined(earlier, later, IDLE))
                .isEqualTo(new Backlog(List.of(new Backlog.Sightings(100_000, T, T + 29_999))));
        Backlog three = Backlog.joined(Backlog.joined(earlier, later, IDLE), nextInterval, IDLE);
        assertThat(Backlog.joined(nextInterval, Backlog.joined(later, earlier, IDLE), IDLE)).isEqualTo(three);
        assertThat(Backlog.joined(three, three, IDLE)).isEqualTo(three);
        Backlog afterTheEnd = new Backlog(200_000, T + 30_000);
        assertThat(Backlog.joined(afterTheEnd, earlier, IDLE)).isEqualTo(afterTheEnd);
    }

    @Test
    void ofMoreThanTwoGroupsTheOlderAreOneHeldAsLongAsTheLatestOfThem() {
        // Possible only when idleAfter changed between writes: three intervals of 10 s all still holding.
        Backlog wide = new Backlog(List.of(new Backlog.Sightings(100_000, T, T + 25_000), new Backlog.Sightings(120_000, T + 26_000, T + 27_000)));
        Backlog joined = Backlog.joined(wide, new Backlog(300_000, T + 31_000), Duration.ofSeconds(10));
        assertThat(joined.sightings()).containsExactly(new Backlog.Sightings(100_000, T, T + 27_000), new Backlog.Sightings(300_000, T + 31_000, T + 31_000));
    }

    @Test
    void writingAgainIsNeedlessOnlyForNoOlderFrontierSeenWithinTheSlack() {
        Backlog written = new Backlog(100_000, T);
        Duration slack = Duration.ofSeconds(1);
        assertThat(written.covers(new Backlog(150_000, T + 999), slack, IDLE)).isTrue();
        assertThat(written.covers(new Backlog(150_000, T + 1_000), slack, IDLE)).as("seen a second later").isFalse();
        assertThat(written.covers(new Backlog(99_999, T + 10), slack, IDLE)).as("an older frontier").isFalse();
        assertThat(new Backlog(100_000, T + 29_999).covers(new Backlog(150_000, T + 30_000), slack, IDLE)).as("a new interval").isFalse();
    }

    @ParameterizedTest(name = "last arrival {0} -> floor {1}")
    @CsvSource({"50000, 50000", "99999, 99999", "100000, -1", "150000, -1", "0, -1"})
    void evidenceAfterAnOutageReachesBackToTheLastArrivalBeforeIt(long lastArrival, long floor) {
        Backlog reached = new Backlog(100_000, 1_000_000).reachingBack(lastArrival, Duration.ofHours(1));
        assertThat(reached.floors()).isEqualTo(floor < 0 ? List.of() : List.of(new Backlog.Floor(floor, 1_000_000, 1_000_000)));
        assertThat(reached.sightings()).containsExactly(new Backlog.Sightings(100_000, 1_000_000, 1_000_000));
    }

    @Test
    void theFloorHoldsWhileTheOutagesMessagesKeepComing() {
        // Resumed at T after an outage that began at 100 s; the first behind message was sent at 200 s.
        Backlog b = new Backlog(200_000, T).reachingBack(100_000, Duration.ofHours(1));
        for (long seen = T + 20_000; seen <= T + 280_000; seen += 20_000) {
            b = Backlog.joined(b, new Backlog(150_000 + seen - T, seen), IDLE); // a message sent during the outage
            assertThat(b.capMillis(seen, IDLE, Duration.ZERO)).as("at T + %d ms", seen - T).isEqualTo(100_000);
        }
        b = Backlog.joined(b, new Backlog(T + 250_000, T + 300_000), IDLE); // sent after the consumers were back
        assertThat(b.floors()).containsExactly(new Backlog.Floor(100_000, T, T + 280_000));
        assertThat(b.capMillis(T + 309_999, IDLE, Duration.ZERO)).as("the last message sent before T was seen at T + 280 s").isEqualTo(100_000);
        assertThat(b.capMillis(T + 310_000, IDLE, Duration.ZERO)).as("then only newer messages came: the floor lifts").isEqualTo(T + 250_000);
    }

    @Test
    void eachOutagesFloorLiftsOnItsOwn() {
        // Two stalls, the consumers back at T + 25 s and at T + 40 s: the first's floor still holds when the second's is laid.
        Backlog first = new Backlog(T + 5_000, T + 25_000).reachingBack(T, IDLE);
        Backlog both = Backlog.joined(first, new Backlog(T + 32_000, T + 40_000).reachingBack(T + 30_000, IDLE), IDLE);
        assertThat(both.floors()).containsExactly(new Backlog.Floor(T, T + 25_000, T + 25_000), new Backlog.Floor(T + 30_000, T + 40_000, T + 40_000));
        // A message of the second stall holds the second floor, not the first, which lapses at T + 55 s.
        Backlog later = Backlog.joined(both, new Backlog(T + 35_000, T + 60_000), IDLE);
        assertThat(later.floors()).containsExactly(new Backlog.Floor(T + 30_000, T + 40_000, T + 60_000));
        assertThat(later.capMillis(T + 60_000, IDLE, Duration.ZERO)).isEqualTo(T + 30_000);
    }

    @Test
    void theFloorsOfOneOutageLaidAtOnceAreOne() {
        // Two consumers' first batches after one outage, 300 ms apart, each reaching back before the other wrote.
        Backlog one = new Backlog(T + 5_000, T + 25_000).reachingBack(T, IDLE);
        Backlog other = new Backlog(T + 9_000, T + 25_300).reachingBack(T + 2_000, IDLE);
        assertThat(Backlog.joined(one, other, IDLE).floors()).containsExactly(new Backlog.Floor(T, T + 25_300, T + 25_300));
    }

    @Test
    void aMessageOfTheOutageOlderThanTheFloorLowersIt() {
        Backlog b = new Backlog(200_000, T).reachingBack(100_000, Duration.ofHours(1));
        Backlog older = Backlog.joined(b, new Backlog(90_000, T + 5_000), IDLE);
        assertThat(older.floors()).containsExactly(new Backlog.Floor(90_000, T, T + 5_000));
        assertThat(Backlog.joined(older, new Backlog(T + 1_000, T + 6_000), IDLE).floors()).as("sent after the consumers were back")
                .containsExactly(new Backlog.Floor(90_000, T, T + 5_000));
    }

    @Test
    void theEvidenceInForceJoinsTheShardsGroupsThatStillHold() {
        List<Backlog> shards = List.of(new Backlog(100_000, 1_000_000), new Backlog(150_000, 1_020_000), new Backlog(120_000, 1_010_000));
        assertThat(Backlog.inForce(shards, 1_025_000, IDLE)).contains(new Backlog(List.of(
                new Backlog.Sightings(100_000, 1_000_000, 1_010_000), new Backlog.Sightings(150_000, 1_020_000, 1_020_000))));
        assertThat(Backlog.inForce(shards, 1_035_000, IDLE)).as("the first shard's evidence has expired").contains(new Backlog(List.of(
                new Backlog.Sightings(120_000, 1_010_000, 1_010_000), new Backlog.Sightings(150_000, 1_020_000, 1_020_000))));
        assertThat(Backlog.inForce(shards, 1_050_000, IDLE)).isEmpty();
    }

    @ParameterizedTest(name = "at +{0} ms the watermark is {1}")
    @CsvSource({
            "0, 90000",       // capped: the frontier 100 s minus 10 s of out-of-orderness
            "29999, 90000",   // still held
            "30000, 590000",  // the episode is over: newest event time 600 s minus 10 s
    })
    void aBacklogCapsTheWatermarkWhileItHolds(long after, long expected) {
        long now = 1_000_000 + after;
        Optional<Backlog> backlog = Optional.of(new Backlog(100_000, 1_000_000));
        assertThat(Watermarks.watermark(SPEC, 600_000, now, backlog, now).millis()).isEqualTo(expected);
    }

    @Test
    void theCapNeverRaisesTheWatermark() {
        Optional<Backlog> backlog = Optional.of(new Backlog(900_000, 1_000_000));
        assertThat(Watermarks.watermark(SPEC, 600_000, 1_000_000, backlog, 1_000_000).millis()).isEqualTo(590_000);
        assertThat(Watermarks.watermark(SPEC, Long.MIN_VALUE, 1_000_000, backlog, 1_000_000).millis()).isEqualTo(Watermarks.NO_WATERMARK);
    }

    @Test
    void aRedeliveryHoldsOnlyItsOwnBatch() {
        QueueEvidence e = QueueEvidence.NONE
                .with(500_000, 1, 505_000, 505_000, SPEC.outOfOrderness())     // prompt: no evidence
                .with(400_000, 3, 400_100, 505_000, SPEC.outOfOrderness())     // third delivery, behind (its attempts failed)
                .with(450_000, 1, 505_000, 505_000, SPEC.outOfOrderness());    // first delivery, behind
        assertThat(e.firstDeliveries()).contains(new Backlog(450_000, 505_000));
        assertThat(e.all()).contains(new Backlog(400_000, 505_000));
        assertThat(QueueEvidence.NONE.with(500_000, 1, 505_000, 505_000, SPEC.outOfOrderness())).isEqualTo(QueueEvidence.NONE);
        // Out of the queue at once, then held 30 s by a poller (a batching window, a throttled invocation): no backlog
        // stored, but the batch's own watermark waits for it.
        assertThat(QueueEvidence.NONE.with(470_000, 1, 470_050, 505_000, SPEC.outOfOrderness()))
                .isEqualTo(new QueueEvidence(java.util.Optional.empty(), java.util.Optional.of(new Backlog(470_000, 505_000))));
    }
}
