package dev.fanin.core.trigger;

import static dev.fanin.core.trigger.EventFixture.json;
import static dev.fanin.core.trigger.PipelineFixture.path;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.Condition;
import dev.fanin.core.config.ValueRef;
import dev.fanin.core.event.Event;
import dev.fanin.core.text.ExactJson;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** What the triggers read from an event: sentinel predicates, counts and member numbers (docs/CONFIGURATION.md). */
class EventValuesTest {

    /** An event whose payload is {@code payload} and whose envelope says it came from {@code source}. */
    private static Event event(String payload) {
        return new Event("test-pipe", "key-1", "e1", Instant.EPOCH, false, Instant.EPOCH, json(payload),
                json("{\"source\":\"aws.s3\",\"n\":7}"), "msg-e1");
    }

    /**
     * Numbers read as intake reads them (exactly, {@code ExactJson}) and compared by their decimal text, as match
     * rules and keys compare them: a sentinel {@code equals: '100'} holds for {@code 1e2} as it does for {@code 100}.
     */
    @ParameterizedTest(name = "{0} equals ''{1}'' -> {2}")
    @CsvSource(delimiter = '|', value = {
            "100       | 100       | true",
            "1e2       | 100       | true",
            "1E+2      | 100       | true",
            "1.50      | 1.50      | true",
            "1e-7      | 0.0000001 | true",
            "1e2       | 1E+2      | false",
            "true      | true      | true",
    })
    void numbersCompareByTheirDecimalText(String written, String expected, boolean holds) throws Exception {
        Event e = new Event("test-pipe", "key-1", "e1", Instant.EPOCH, false, Instant.EPOCH,
                ExactJson.read("{\"m\":" + written + "}"), json("{}"), "msg-e1");

        assertThat(EventValues.matches(equalTo("$.m", expected), e)).isEqualTo(holds);
    }

    private static Condition equalTo(String p, String value) {
        return new Condition(path(p), value, null, null, null);
    }

    @ParameterizedTest(name = "{0} on {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "exists      | {\"m\":1}          | true",
            "exists      | {\"m\":null}       | false",
            "exists      | {}                 | false",
            "absent      | {}                 | true",
            "absent      | {\"m\":\"x\"}      | false",
            "equals      | {\"m\":\"done\"}   | true",
            "equals      | {\"m\":\"Done\"}   | false",
            "equals      | {\"m\":{}}         | false",
            "oneOf       | {\"m\":\"b\"}      | true",
            "oneOf       | {\"m\":\"c\"}      | false",
            "matches     | {\"m\":\"x/_SUCCESS\"} | true",
            "matches     | {\"m\":\"x/_SUCCESS.tmp\"} | false",
            "matches     | {\"m\":7}          | false",
            "nothing     | {\"m\":\"x\"}      | false",
    })
    void conditions(String kind, String payload, boolean holds) {
        Condition condition = switch (kind) {
            case "exists" -> new Condition(path("$.m"), null, null, null, true);
            case "absent" -> new Condition(path("$.m"), null, null, null, false);
            case "equals" -> equalTo("$.m", "done");
            case "oneOf" -> new Condition(path("$.m"), null, List.of("a", "b"), null, null);
            case "matches" -> new Condition(path("$.m"), null, null, Pattern.compile(".*/_SUCCESS"), null);
            default -> new Condition(path("$.m"), null, null, null, null);
        };

        assertThat(EventValues.matches(condition, event(payload))).isEqualTo(holds);
    }

    @Test
    void anEnvelopePathReadsTheEnvelope() {
        assertThat(EventValues.matches(equalTo("$envelope.source", "aws.s3"), event("{\"source\":\"other\"}"))).isTrue();
        assertThat(EventValues.matches(equalTo("$.source", "aws.s3"), event("{\"source\":\"other\"}"))).isFalse();
        assertThat(EventValues.integer(ValueRef.of(path("$envelope.n")), event("{}"))).isEqualTo(OptionalLong.of(7));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "{\"v\":12}        | 12",
            "{\"v\":12.0}      | 12",
            "{\"v\":12.5}      | -",
            "{\"v\":1e30}      | -",
            "{\"v\":\" 42 \"}  | 42",
            "{\"v\":\"-3\"}    | -3",
            "{\"v\":\"4x\"}    | -",
            "{\"v\":true}      | -",
            "{}                | -",
    })
    void integers(String payload, Long expected) {
        OptionalLong value = EventValues.integer(ValueRef.of(path("$.v")), event(payload));

        assertThat(value).isEqualTo(expected == null ? OptionalLong.empty() : OptionalLong.of(expected));
    }

    @Test
    void anExtractRegexCutsItsFirstGroupOrFindsNothing() {
        ValueRef count = new ValueRef(path("$.key"), Pattern.compile("_manifest-(\\d+)\\.json$"));
        ValueRef optionalGroup = new ValueRef(path("$.key"), Pattern.compile("x(\\d+)?"));

        assertThat(EventValues.text(count, event("{\"key\":\"in/_manifest-12.json\"}"))).contains("12");
        assertThat(EventValues.integer(count, event("{\"key\":\"in/_manifest-12.json\"}"))).isEqualTo(OptionalLong.of(12));
        assertThat(EventValues.text(count, event("{\"key\":\"in/a.csv\"}"))).isEqualTo(Optional.empty());
        assertThat(EventValues.text(optionalGroup, event("{\"key\":\"x\"}"))).as("the group did not take part").isEmpty();
    }
}
