package dev.fanin.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SuggestionsTest {

    private static final List<String> TRIGGER_FIELDS = List.of("count", "expected", "sentinel", "maxLifetime");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
            "maxLifetme, maxLifetime",
            "maxlifetime, maxLifetime",
            "max_lifetime, maxLifetime",
            "cuont, count",
            "expect, expected",
            "sentinal, sentinel",
            "deadline, none",
            "x, none"})
    void suggestsOnlyPlausibleTypos(String typed, String suggestion) {
        assertThat(Suggestions.closest(typed, TRIGGER_FIELDS).orElse(null)).isEqualTo(suggestion);
    }

    @ParameterizedTest(name = "{0} vs {1} = {2}")
    @CsvSource({"gap, gap, 0", "gap, gpa, 1", "gap, map, 1", "size, slide, 2", "'', abc, 3"})
    void distanceCountsATranspositionAsOneEdit(String a, String b, int distance) {
        assertThat(Suggestions.distance(a, b)).isEqualTo(distance);
    }
}
