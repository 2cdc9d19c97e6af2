package dev.fanin.core.intake;

import static dev.fanin.core.intake.PipelineFixture.equalTo;
import static dev.fanin.core.intake.PipelineFixture.exists;
import static dev.fanin.core.intake.PipelineFixture.matches;
import static dev.fanin.core.intake.PipelineFixture.oneOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.Condition;
import dev.fanin.core.config.MatchRule;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MatchRulesTest {

    private static final JsonNode PAYLOAD = read("{\"type\":\"shard.done\",\"shard\":3,\"ratio\":1.50,\"final\":true,"
            + "\"gone\":null,\"tags\":[\"a\"],\"meta\":{\"k\":\"v\"}}");
    private static final JsonNode ENVELOPE = read("{\"source\":\"custom.alerts\"}");

    static Stream<Arguments> conditions() {
        return Stream.of(
                Arguments.of(equalTo("$.type", "shard.done"), true),
                Arguments.of(equalTo("$.type", "shard"), false),
                Arguments.of(equalTo("$.shard", "3"), true),
                Arguments.of(equalTo("$.ratio", "1.50"), true),
                Arguments.of(equalTo("$.final", "true"), true),
                Arguments.of(equalTo("$.gone", "null"), false),
                Arguments.of(equalTo("$.tags", "[\"a\"]"), false),
                Arguments.of(equalTo("$.missing", ""), false),
                Arguments.of(oneOf("$.shard", "1", "3"), true),
                Arguments.of(oneOf("$.shard", "1", "2"), false),
                Arguments.of(matches("$.type", "shard\\..*"), true),
                Arguments.of(matches("$.type", "shard"), false),  // full match, not find
                Arguments.of(matches("$.shard", "\\d"), true),
                Arguments.of(matches("$.meta", ".*"), false),
                Arguments.of(exists("$.type", true), true),
                Arguments.of(exists("$.meta", true), true),
                Arguments.of(exists("$.gone", true), false),
                Arguments.of(exists("$.gone", false), true),
                Arguments.of(exists("$.missing", false), true),
                Arguments.of(exists("$.type", false), false),
                Arguments.of(equalTo("$envelope.source", "custom.alerts"), true),
                Arguments.of(equalTo("$.source", "custom.alerts"), false));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("conditions")
    void conditionComparesTheTextOfScalars(Condition condition, boolean expected) {
        assertThat(MatchRules.holds(condition, PAYLOAD, ENVELOPE)).isEqualTo(expected);
    }

    @Test
    void ruleNeedsEveryConditionAndEmptyRuleMatchesEverything() {
        assertThat(MatchRules.holds(MatchRule.always(), PAYLOAD, ENVELOPE)).isTrue();
        assertThat(MatchRules.holds(new MatchRule(List.of(equalTo("$.type", "shard.done"), equalTo("$.shard", "3"))), PAYLOAD, ENVELOPE)).isTrue();
        assertThat(MatchRules.holds(new MatchRule(List.of(equalTo("$.type", "shard.done"), equalTo("$.shard", "4"))), PAYLOAD, ENVELOPE)).isFalse();
    }

    private static JsonNode read(String json) {
        try {
            return new StrictJson(10_000).parse(json, "test");
        } catch (IntakeFailure e) {
            throw new AssertionError(e);
        }
    }

}
