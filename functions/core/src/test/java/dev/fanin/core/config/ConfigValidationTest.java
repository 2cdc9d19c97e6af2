package dev.fanin.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each mistake yields exactly its own message, and nothing else: no noise from problems that follow from it. */
class ConfigValidationTest {

    static List<ValidationCases.Case> cases() {
        return ValidationCases.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachMistakeHasItsOwnExactMessage(ValidationCases.Case c) {
        ConfigException rejected = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(c.yaml(), "test.yaml"));

        assertThat(rejected).as("expected a ConfigException for:%n%s", c.yaml()).isNotNull();
        assertThat(rejected.problems()).extracting(ConfigProblem::toString).containsExactly(c.expected());
    }

    @Test
    void theValidPipelineTheCasesModifyLoads() {
        // Guards the cases themselves: the base they modify is valid, so each case fails for its own reason only.
        assertThat(ConfigLoader.load(ValidationCases.valid(""), "base.yaml").pipelines()).hasSize(1);
    }

    @Test
    void thereAreManyDistinctMistakesEachWithItsOwnMessage() {
        assertThat(cases().stream().map(ValidationCases.Case::expected).distinct().count()).isGreaterThan(80);
        assertThat(cases()).extracting(ValidationCases.Case::mistake).doesNotHaveDuplicates();
    }
}
