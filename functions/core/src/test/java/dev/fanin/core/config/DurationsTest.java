package dev.fanin.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest(name = "{0} = {1} ms")
    @CsvSource({
            "500ms, 500",
            "30s, 30000",
            "5m, 300000",
            "2h, 7200000",
            "1d, 86400000",
            "PT5M, 300000",
            "pt1.5s, 1500",
            "' 30s ', 30000",
            "0s, 0",
            "-5s, -5000",
            "3650d, 315360000000"})
    void parsesUnitsAndIso8601(String text, long millis) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5x", "", "5", "s", "5 m", "5M", "1.5s", "P", "PTxS", "5mm"})
    void rejectsWhatIsNotADuration(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("\"" + text + "\" is not a duration; use e.g. \"30s\", \"5m\"");
    }

    @Test
    void theLongestDurationIsTenYearsSoEpochArithmeticCannotOverflow() {
        assertThat(Durations.parse("3650d")).isEqualTo(Durations.LONGEST);
        assertThatThrownBy(() -> Durations.parse("3651d")).hasMessage("\"3651d\" is too large; the longest allowed is 3650d");
        assertThatThrownBy(() -> Durations.parse("315360000001ms")).hasMessage("\"315360000001ms\" is too large; the longest allowed is 3650d");
        assertThatThrownBy(() -> Durations.parse("999999999999999999d")).hasMessage("\"999999999999999999d\" is too large; the longest allowed is 3650d");
        assertThatThrownBy(() -> Durations.parse("PT999999999999H")).hasMessageContaining("is too large");
        // The most negative Duration has no absolute value: it was an ArithmeticException that stopped the loader.
        assertThatThrownBy(() -> Durations.parse("PT-9223372036854775808S")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("\"PT-9223372036854775808S\" is too large; the longest allowed is 3650d");
        assertThatThrownBy(() -> ConfigLoader.load("version: 1\npipelines:\n  - name: p\n    key: [$.id]\n"
                + "    triggers: {maxLifetime: PT-9223372036854775808S}\n", "t.yaml")).isInstanceOf(ConfigException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"never", "infinite", "Forever", ".inf"})
    void rejectsInfinityWithItsOwnReason(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .hasMessage("\"" + text + "\" is not allowed: fanin needs a finite time so that every window closes; use e.g. \"15m\"");
    }

    @ParameterizedTest(name = "{0} formats as {1}")
    @CsvSource({"0, 0s", "1, 1ms", "999, 999ms", "1000, 1s", "1500, 1500ms", "90000, 90s", "60000, 1m", "3600000, 1h", "5400000, 90m",
            "86400000, 1d", "90000000, 25h"})
    void formatsWithTheLargestExactUnitAndParsesBack(long millis, String text) {
        assertThat(Durations.format(Duration.ofMillis(millis))).isEqualTo(text);
        assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }
}
