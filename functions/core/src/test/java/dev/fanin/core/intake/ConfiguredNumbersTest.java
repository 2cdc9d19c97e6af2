package dev.fanin.core.intake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A number written in the configuration (unquoted YAML) is compared as the same number written the same way in an
 * event: YAML floats are read as exact decimals with their scale, not as doubles ({@code 1.50} was {@code 1.5},
 * {@code 0.0001} was {@code 1.0E-4}, so the rule never held and every such event was dead-lettered).
 */
class ConfiguredNumbersTest {

    private static final Instant SENT = Instant.parse("2026-11-29T10:00:00Z");

    @ParameterizedTest
    @ValueSource(strings = {"1.50", "0.0001", "10000000.0", "12345678901234567890.5", "2.5e-3", "1e2", "100", "-0.0"})
    void aNumberInAMatchRuleMatchesTheSameNumberInAnEvent(String number) {
        IntakeResult result = parse("match:\n      - {path: $.ratio, equals: " + number + "}", number);

        assertThat(result.rejected()).isEmpty();
        assertThat(result.accepted()).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.50", "0.0001", "100"})
    void aNumberInAListMatchesTheSameNumberInAnEvent(String number) {
        IntakeResult result = parse("match:\n      - {path: $.ratio, oneOf: [7, " + number + "]}", number);

        assertThat(result.accepted()).hasSize(1);
    }

    private static IntakeResult parse(String match, String number) {
        FaninConfig config = ConfigLoader.load("""
                version: 1
                pipelines:
                  - name: p
                    %s
                    key: [$.k]
                    triggers: {maxLifetime: 15m}
                """.formatted(match), "test.yaml");
        return new MessageIntake(config).parse(new InboundMessage("m1", "{\"k\":\"a\",\"ratio\":" + number + "}", SENT, SENT.plusSeconds(1)));
    }
}
