package dev.fanin.core.window;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Saturating time arithmetic: exact inside the range (zero operands included), clamped at its ends. */
class EventTimeMathTest {

    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource({
            "5, 0, 5", "0, 0, 0", "0, 5, 5", "-5, 0, -5", "7, -3, 4",
            "9223372036854775807, 1, 9223372036854775807",
            "-9223372036854775808, -1, -9223372036854775808",
            "9223372036854775807, -1, 9223372036854775806",
    })
    void plus(long a, long b, long sum) {
        assertThat(EventTimeMath.plus(a, b)).isEqualTo(sum);
    }

    @ParameterizedTest(name = "{0} - {1} = {2}")
    @CsvSource({
            "5, 0, 5", "0, 0, 0", "0, 5, -5", "-5, 0, -5", "7, -3, 10",
            "9223372036854775807, -1, 9223372036854775807",
            "-9223372036854775808, 1, -9223372036854775808",
            "0, -9223372036854775808, 9223372036854775807",
    })
    void minus(long a, long b, long difference) {
        assertThat(EventTimeMath.minus(a, b)).isEqualTo(difference);
    }
}
