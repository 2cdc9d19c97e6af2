package dev.fanin.core.config;

import static dev.fanin.core.config.ValidationCases.p;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Independent problems in different sections are all reported in one pass: a broken field skips only the rules that
 * read it, never the rest of the pipeline. A problem that only follows from another is still not reported.
 */
class OnePassValidationTest {

    private static final String LAST_100 = "aggregations: [{name: samples, type: last, n: 100}]";
    private static final String TOO_BIG = "aggregations can make an aggregate of up to 1041341 bytes, more than the 262124 bytes an"
            + " EventBridge entry takes here; the largest is aggregations[0] \"samples\" with up to 1033935 bytes: lower its n or maxValueBytes";

    static Stream<Arguments> cases() {
        return Stream.of(
                of("the size budget beside a broken window",
                        p("name: p\nkey: [$.k]\nwindow: {type: session, gap: 5x}\ntriggers: {maxLifetime: 15m}\n" + LAST_100),
                        "pipeline \"p\": window.gap \"5x\" is not a duration; use e.g. \"30s\", \"5m\"",
                        "pipeline \"p\": " + TOO_BIG),
                of("the completeness and retention rules beside a broken count",
                        p("name: p\nkey: [$.k]\ntriggers: {count: zero, maxLifetime: 15m}\nincomplete: {policy: hold}\n"
                                + "allowedLateness: 2h\nretention: 1h"),
                        "pipeline \"p\": triggers.count must be a whole number, not \"zero\"",
                        "pipeline \"p\": incomplete.policy is hold, but this pipeline has no way to know a window is complete; add"
                                + " triggers.expected or triggers.sentinel, or use policy: fire-partial",
                        "pipeline \"p\": retention \"1h\" is not longer than allowedLateness \"2h\"; a late event could find its window"
                                + " deleted and fire it a second time, so keep windows longer"),
                of("the lifetime rule beside a misspelt trigger",
                        p("name: p\nkey: [$.k]\nwindow: {type: session, gap: 30m}\ntriggers: {cuont: 5, maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.cuont is not a known field; did you mean \"count\"?",
                        "pipeline \"p\": triggers.maxLifetime \"15m\" is not longer than window.gap \"30m\" plus watermark.outOfOrderness"
                                + " \"5s\" and no count, expected or sentinel trigger can close a window sooner, so windows would close"
                                + " by maxLifetime before the watermark passes their end; make it longer than \"1805s\" or add a trigger"),
                of("the lifetime rule beside a broken offset",
                        p("name: p\nkey: [$.k]\nwindow: {type: tumbling, size: 1h, offset: -1s}\ntriggers: {maxLifetime: 15m}"),
                        "pipeline \"p\": window.offset \"-1s\" must not be negative",
                        "pipeline \"p\": triggers.maxLifetime \"15m\" is not longer than window.size \"1h\" plus watermark.outOfOrderness"
                                + " \"5s\" and no count, expected or sentinel trigger can close a window sooner, so windows would close"
                                + " by maxLifetime before the watermark passes their end; make it longer than \"3605s\" or add a trigger"),
                of("the count rule beside another broken bound",
                        p("name: p\nkey: [$.k]\ntriggers: {count: 500, maxLifetime: 15m}\nbounds: {maxEventsPerWindow: 100, maxOpenWindows: 0}"),
                        "pipeline \"p\": bounds.maxOpenWindows is 0; it must be at least 1",
                        "pipeline \"p\": triggers.count is 500, more than bounds.maxEventsPerWindow 100, so it could never fire;"
                                + " lower it or raise the bound"),
                of("the completeness rule beside a broken atDeadline",
                        p("name: p\nkey: [$.k]\ntriggers: {maxLifetime: 15m}\nincomplete: {policy: hold, atDeadline: explode}"),
                        "pipeline \"p\": incomplete.atDeadline \"explode\" is not one of fire-flagged, dead-letter",
                        "pipeline \"p\": incomplete.policy is hold, but this pipeline has no way to know a window is complete; add"
                                + " triggers.expected or triggers.sentinel, or use policy: fire-partial"),
                of("both sources of the expected count beside a broken expected count",
                        p("name: p\nkey: [$.k]\ntriggers:\n  expected: {count: 0}\n"
                                + "  sentinel: {when: {path: $.last, exists: true}, expectedCount: $.n}\n  maxLifetime: 15m"),
                        "pipeline \"p\": triggers.expected.count is 0; it must be between 1 and 10000000",
                        "pipeline \"p\": triggers.sentinel.expectedCount and triggers.expected both give the expected count; keep one of them"),
                of("a pipeline without a name: each problem located by position, the size budget too",
                        p("key: [account]\ntriggers: {maxLifetime: 15m}\n" + LAST_100),
                        "pipelines[0].name is missing; give every pipeline a name, e.g. \"file-uploads\"",
                        "pipelines[0].key[0] \"account\" must start with \"$\" (payload) or \"$envelope\"; use e.g. \"$.detail.id\"",
                        "pipelines[0]." + TOO_BIG),
                of("problems in two pipelines",
                        p("name: p\nmatch: [{path: $.a, exists: true}]\nkey: [$.k]\nwindow: {type: tumbling, size: 5x}\ntriggers: {maxLifetime: 15m}")
                                + "  - {name: q, key: [$.k], triggers: {maxLifetime: 15m}, " + LAST_100 + "}\n",
                        "pipeline \"p\": window.size \"5x\" is not a duration; use e.g. \"30s\", \"5m\"",
                        "pipeline \"q\": " + TOO_BIG),
                // A broken trigger still counts as written: fixed, it closes windows sooner, so the lifetime rule would guess.
                of("a broken count is no reason to lengthen maxLifetime",
                        p("name: p\nkey: [$.k]\nwindow: {type: session, gap: 30m}\ntriggers: {count: 0, maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.count is 0; it must be between 1 and 10000000"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyIndependentProblemIsReportedInOnePass(String name, String yaml, List<String> expected) {
        ConfigException rejected = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(yaml, "test.yaml"));

        assertThat(rejected).as("expected a ConfigException for:%n%s", yaml).isNotNull();
        assertThat(rejected.problems()).extracting(ConfigProblem::toString).containsExactlyElementsOf(expected);
    }

    private static Arguments of(String name, String yaml, String... expected) {
        return Arguments.of(name, yaml, List.of(expected));
    }
}
