package dev.fanin.core.machine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every number intake accepts round-trips exactly through the window's state, its samples and the frozen emission
 * that a takeover re-emits: the state is read back with exact decimals, never as doubles.
 */
class ExactNumbersTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final FaninConfig CONFIG = ConfigLoader.load("""
            version: 1
            pipelines:
              - name: p
                key: [$.k]
                eventId: $.id
                window: {type: tumbling, size: 1h}
                triggers: {count: 2, maxLifetime: 2h}
                aggregations:
                  - {name: total, type: sum, path: $.v}
                  - {name: least, type: min, path: $.v}
                  - {name: most, type: max, path: $.v}
                  - {name: values, type: distinct-values, path: $.v}
                  - {name: samples, type: last, n: 2}
                emit: {sqs: {queueUrl: "https://sqs.us-east-1.amazonaws.com/1/out"}}
            """, "test");
    private static final MessageIntake INTAKE = new MessageIntake(CONFIG);
    private final WindowMachine machine = new WindowMachine(CONFIG.pipelines().get(0), Duration.ofMinutes(1));

    private static Event event(String id, String number) {
        String body = "{\"k\":\"key\",\"id\":\"" + id + "\",\"v\":" + number + "}";
        return INTAKE.parse(new InboundMessage("m-" + id, body, NOW, NOW))
                .accepted().get(0);
    }

    /** Two events claimed by the count trigger, then the claimed window as a takeover would read it from the store. */
    private WindowState claimedAndReadBack(String a, String b) {
        WindowState open = machine.open(new WindowRef("p", "key", "T0"), new Interval(0, Long.MAX_VALUE / 2), NOW);
        Transition claimed = machine.ingest(open, List.of(event("a", a), event("b", b)), Long.MIN_VALUE, NOW);
        assertThat(claimed.action()).isEqualTo(Transition.Action.EMIT);
        return WindowCodec.decode(WindowCodec.encode(claimed.next().withVersion(1)), CONFIG.pipelines().get(0));
    }

    @ParameterizedTest(name = "{0} + {1}")
    @CsvSource({"12345678901234567890.5, 0.25", "0.1, 0.2", "1.50, 2.50", "1e300, 1e-300", "-9.999999999999999999999999e299, 1",
            "123456789012345678901234567890123456789012345678901234567890123, -0.000000000000000000000000000000000000000000000000000000001"})
    void sumsMinimaMaximaAndSamplesComeBackExactlyFromTheStoredClaim(String a, String b) {
        String sum = new java.math.BigDecimal(a).add(new java.math.BigDecimal(b)).toString();
        JsonNode emission = claimedAndReadBack(a, b).claim().emission();

        JsonNode aggregations = emission.path("aggregations");
        assertThat(aggregations.path("total").path("value").decimalValue().toString()).isEqualTo(sum);
        assertThat(aggregations.path("total").path("value").isDouble()).as("never a double").isFalse();
        String least = new java.math.BigDecimal(a).compareTo(new java.math.BigDecimal(b)) <= 0 ? a : b;
        String most = least.equals(a) ? b : a;
        assertThat(aggregations.path("least").path("value").decimalValue()).isEqualByComparingTo(least);
        assertThat(aggregations.path("most").path("value").decimalValue()).isEqualByComparingTo(most);
        assertThat(aggregations.path("least").path("value").decimalValue().scale()).isEqualTo(new java.math.BigDecimal(least).scale());
        JsonNode samples = aggregations.path("samples");
        assertThat(samples.get(0).path("value").path("v").decimalValue()).isEqualTo(new java.math.BigDecimal(a));
        assertThat(samples.get(1).path("value").path("v").decimalValue()).isEqualTo(new java.math.BigDecimal(b));
    }

    @Test
    void theFrozenEmissionReadBackIsTheSameTextAsWhenItWasClaimed() {
        WindowState open = machine.open(new WindowRef("p", "key", "T0"), new Interval(0, Long.MAX_VALUE / 2), NOW);
        WindowState claimed = machine.ingest(open, List.of(event("a", "12345678901234567890.5"), event("b", "0.25")),
                Long.MIN_VALUE, NOW).next();

        WindowState readBack = WindowCodec.decode(WindowCodec.encode(claimed.withVersion(1)), CONFIG.pipelines().get(0));

        assertThat(readBack.claim().emission().toString()).isEqualTo(claimed.claim().emission().toString())
                .contains("\"value\":12345678901234567890.75");
    }
}
