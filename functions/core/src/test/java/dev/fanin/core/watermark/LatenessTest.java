package dev.fanin.core.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LatenessTest {

    private static final long END = 60_000;
    private static final Duration LATENESS = Duration.ofSeconds(30);

    @ParameterizedTest(name = "watermark {0} -> {1}")
    @CsvSource({
            "59999, ON_TIME",   // end - 1
            "60000, LATE",      // end
            "89999, LATE",      // end + lateness - 1
            "90000, TOO_LATE",  // end + lateness
    })
    void classifiesAgainstWindowEndAndGrace(long watermark, Lateness expected) {
        assertThat(Lateness.classify(END, watermark, LATENESS)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "no lateness: watermark {0} -> {1}")
    @CsvSource({"59999, ON_TIME", "60000, TOO_LATE"})
    void withoutAllowedLatenessEndIsTooLate(long watermark, Lateness expected) {
        assertThat(Lateness.classify(END, watermark, Duration.ZERO)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "end near max, watermark {0} -> {1}")
    @CsvSource({
            "9223372036854775806, LATE",      // a wrapped grace end (negative) would say TOO_LATE here
            "9223372036854775807, TOO_LATE",  // the grace end saturates at Long.MAX_VALUE
    })
    void graceEndSaturates(long watermark, Lateness expected) {
        assertThat(Lateness.classify(Long.MAX_VALUE - 10, watermark, LATENESS)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "no watermark yet -> ON_TIME")
    @CsvSource({"0", "-9223372036854775807"})
    void noWatermarkIsOnTime(long end) {
        assertThat(Lateness.classify(end, Watermarks.NO_WATERMARK, LATENESS)).isEqualTo(Lateness.ON_TIME);
    }
}
