package dev.fanin.core.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.WatermarkSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WatermarksTest {

    /** Out-of-orderness 5 s, idle after 60 s. */
    private static final WatermarkSpec SPEC = new WatermarkSpec(Duration.ofSeconds(5), Duration.ofSeconds(60));

    @Test
    void watermarkTrailsNewestEventTimeByOutOfOrderness() {
        assertThat(Watermarks.watermarkMillis(SPEC, 100_000, 1_000_000, 1_000_000)).isEqualTo(95_000);
    }

    @ParameterizedTest(name = "idle for {0} ms -> watermark {1}")
    @CsvSource({
            "0, 95000",
            "59999, 95000",  // idleAfter - 1: no advance yet
            "60000, 95000",  // exactly idleAfter: still no advance
            "60001, 95001",  // from then on the watermark moves with processing time
            "90000, 125000",
    })
    void idlePipelineAdvancesWithProcessingTime(long idleMillis, long expected) {
        long lastArrival = 1_000_000;
        assertThat(Watermarks.watermarkMillis(SPEC, 100_000, lastArrival, lastArrival + idleMillis)).isEqualTo(expected);
    }

    @Test
    void clockSkewBackwardsNeverLowersBelowTheBoundedTerm() {
        assertThat(Watermarks.watermarkMillis(SPEC, 100_000, 1_000_000, 900_000)).isEqualTo(95_000);
    }

    @Test
    void pipelineThatNeverSawAnEventHasNoWatermark() {
        assertThat(Watermarks.watermarkMillis(SPEC, Long.MIN_VALUE, Long.MIN_VALUE, 1_000_000)).isEqualTo(Watermarks.NO_WATERMARK);
    }

    @Test
    void extremeInputsSaturateInsteadOfWrapping() {
        assertThat(Watermarks.watermarkMillis(SPEC, Long.MAX_VALUE, 0, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(Watermarks.watermarkMillis(SPEC, Long.MIN_VALUE + 1, 0, 0)).isEqualTo(Long.MIN_VALUE);
        // now - lastArrival saturates at Long.MAX_VALUE; the rest is then exact.
        assertThat(Watermarks.watermarkMillis(SPEC, 0, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE - 65_000);
    }
}
