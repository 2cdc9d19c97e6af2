package dev.fanin.core.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.WatermarkSpec;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When an ingest batch may leave the stored watermark inputs standing, and what that costs a reader. */
class StoredAdvanceTest {

    /** Stored: newest event time 100 s, written at 101 s (a lead of -1 s). */
    private static final long T = 100_000;
    private static final long A = 101_000;

    @ParameterizedTest(name = "event time {0}, written at {1}, {2} events -> write {3}")
    @CsvSource({
            "102000, 103000, 1, false",  // two seconds on, same lead: the idle advance is unchanged
            "105000, 106000, 1, false",  // SLACK on: still within it
            "105001, 106001, 1, true",   // SLACK + 1 ms: a window waiting on the watermark would wait longer
            "102000, 104000, 1, false",  // lead 1 s worse (TOLERANCE): the idle advance starts at most 1 s early
            "102000, 104001, 1, true",   // lead 1 s + 1 ms worse: the guard that keeps the idle advance from starting early
            "90000, 101500, 1, false",   // an old event arriving soon after: lead no worse than the stored
            "90000, 103000, 1, true",    // an old event arriving later: it resets the idle advance, so it is stored
            "104000, 103000, 1, false",  // lead better (an event from the future): never raises a reader's watermark
            "102000, 103000, 9, false",
            "102000, 103000, 10, true",  // SHARED_BY events: the write costs a tenth of a unit each, not worth latency
    })
    void aBatchWritesUnlessLeavingTheStoredValuesCostsNeitherGuarantee(long maxEventTime, long writeAt, int events, boolean needed) {
        assertThat(StoredAdvance.needed(T, A, maxEventTime, writeAt, events)).isEqualTo(needed);
    }

    @ParameterizedTest(name = "stored ({0}, {1}) -> write")
    @CsvSource({"0, 0", "100000, 0"})
    void aPipelineWithNothingStoredAlwaysWrites(long storedMaxEventTime, long storedLastArrival) {
        assertThat(StoredAdvance.needed(storedMaxEventTime, storedLastArrival, 100_000, 101_000, 1)).isTrue();
    }

    /**
     * The invariant, over any sequence of small batches by one writer: at any later instant, the watermark read from
     * what was stored with skips is at most TOLERANCE above, and at most SLACK below, the one read had every batch
     * written.
     */
    @Property(tries = 300)
    void skippingNeverRaisesAWatermarkBeyondTheToleranceNorLowersItBeyondTheSlack(@ForAll("batches") List<long[]> batches,
                                                                                 @ForAll("readerDelays") long readAfter,
                                                                                 @ForAll("specs") WatermarkSpec spec) {
        long[] skipping = {0, 0};
        long[] every = {0, 0};
        long now = 1_000_000;
        for (long[] batch : batches) {
            now += batch[1];
            long eventTime = now + batch[0];
            if (StoredAdvance.needed(skipping[0], skipping[1], eventTime, now, 1)) {
                skipping = new long[] {Math.max(skipping[0], eventTime), Math.max(skipping[1], now)};
            }
            every = new long[] {Math.max(every[0], eventTime), Math.max(every[1], now)};
        }
        long reader = now + readAfter;
        long withSkips = Watermarks.watermarkMillis(spec, skipping[0], skipping[1], reader);
        long withEvery = Watermarks.watermarkMillis(spec, every[0], every[1], reader);

        assertThat(withSkips).isLessThanOrEqualTo(withEvery + StoredAdvance.TOLERANCE.toMillis());
        assertThat(withSkips).isGreaterThanOrEqualTo(withEvery - StoredAdvance.SLACK.toMillis());
    }

    /** Each batch: its event's lead on its arrival (-20 s to +2 s) and the time since the previous batch (0 to 90 s). */
    @Provide
    Arbitrary<List<long[]>> batches() {
        Arbitrary<long[]> batch = Combinators.combine(Arbitraries.longs().between(-20_000, 2_000), Arbitraries.longs().between(0, 90_000))
                .as((lead, gap) -> new long[] {lead, gap});
        return batch.list().ofMinSize(1).ofMaxSize(30);
    }

    @Provide
    Arbitrary<Long> readerDelays() {
        return Arbitraries.longs().between(0, 300_000);
    }

    @Provide
    Arbitrary<WatermarkSpec> specs() {
        return Combinators.combine(Arbitraries.longs().between(0, 60_000), Arbitraries.longs().between(0, 120_000))
                .as((ooo, idle) -> new WatermarkSpec(Duration.ofMillis(ooo), Duration.ofMillis(idle)));
    }
}
