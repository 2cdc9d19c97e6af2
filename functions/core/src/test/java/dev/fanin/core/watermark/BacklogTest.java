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
        assertThat(new Backlog(100_000, 1_000_000).holdsAt(1_000_000 + after, IDLE)).isEqualTo(holds);
    }

    @Test
    void theCapIsTheFrontierMinusOutOfOrderness() {
        assertThat(new Backlog(100_000, 1_000_000).capMillis(SPEC.outOfOrderness())).isEqualTo(90_000);
    }

    @Test
    void laterEvidenceWhileTheEpisodeHoldsKeepsTheOlderFrontier() {
        Backlog first = new Backlog(100_000, 1_000_000);
        assertThat(first.then(new Backlog(200_000, 1_029_999), IDLE)).isEqualTo(new Backlog(100_000, 1_029_999));
        assertThat(first.then(new Backlog(50_000, 1_010_000), IDLE)).isEqualTo(new Backlog(50_000, 1_010_000));
    }

    @Test
    void evidenceAfterTheEpisodeEndedStartsANewOne() {
        Backlog first = new Backlog(100_000, 1_000_000);
        assertThat(first.then(new Backlog(200_000, 1_030_000), IDLE)).isEqualTo(new Backlog(200_000, 1_030_000));
    }

    @Test
    void evidenceJoinedInEitherOrderIsOneEpisode() {
        Backlog earlier = new Backlog(100_000, 1_000_000);
        Backlog later = new Backlog(200_000, 1_029_999);
        assertThat(Backlog.joined(later, earlier, IDLE)).isEqualTo(Backlog.joined(earlier, later, IDLE)).isEqualTo(new Backlog(100_000, 1_029_999));
        Backlog afterTheEnd = new Backlog(200_000, 1_030_000);
        assertThat(Backlog.joined(afterTheEnd, earlier, IDLE)).isEqualTo(afterTheEnd);
    }

    @ParameterizedTest(name = "last arrival {0} -> frontier {1}")
    @CsvSource({"50000, 50000", "100000, 100000", "150000, 100000", "0, 100000"})
    void anEpisodeReachesBackToTheLastArrivalBeforeIt(long lastArrival, long frontier) {
        assertThat(new Backlog(100_000, 1_000_000).reachingBack(lastArrival, Duration.ofHours(1))).isEqualTo(new Backlog(frontier, 1_000_000));
    }

    @Test
    void theEpisodeInForceJoinsTheShardsThatStillHold() {
        List<Backlog> shards = List.of(new Backlog(100_000, 1_000_000), new Backlog(150_000, 1_020_000), new Backlog(120_000, 1_010_000));
        assertThat(Backlog.inForce(shards, 1_025_000, IDLE)).contains(new Backlog(100_000, 1_020_000));
        assertThat(Backlog.inForce(shards, 1_035_000, IDLE)).as("the first shard's evidence has expired")
                .contains(new Backlog(120_000, 1_020_000));
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
        assertThat(Watermarks.watermarkMillis(SPEC, 600_000, now, backlog, now)).isEqualTo(expected);
    }

    @Test
    void theCapNeverRaisesTheWatermark() {
        Optional<Backlog> backlog = Optional.of(new Backlog(900_000, 1_000_000));
        assertThat(Watermarks.watermarkMillis(SPEC, 600_000, 1_000_000, backlog, 1_000_000)).isEqualTo(590_000);
        assertThat(Watermarks.watermarkMillis(SPEC, Long.MIN_VALUE, 1_000_000, backlog, 1_000_000)).isEqualTo(Watermarks.NO_WATERMARK);
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
