package dev.fanin.core.intake;

import static dev.fanin.core.intake.Messages.json;
import static dev.fanin.core.intake.Messages.message;
import static dev.fanin.core.intake.PipelineFixture.extract;
import static dev.fanin.core.intake.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KeyExtractionTest {

    private final MessageIntake twoParts = new MessageIntake(PipelineFixture.config(pipeline("p").key("$.a", "$.b")));

    private String key(MessageIntake intake, String body) {
        IntakeResult result = intake.parse(message(body));
        assertThat(result.rejected()).isEmpty();
        return result.accepted().get(0).key();
    }

    private Rejected rejection(MessageIntake intake, String body) {
        IntakeResult result = intake.parse(message(body));
        assertThat(result.accepted()).isEmpty();
        assertThat(result.rejected()).hasSize(1);
        return result.rejected().get(0);
    }

    static Stream<Arguments> scalarTexts() {
        return Stream.of(
                Arguments.of("{'a':'x','b':'y'}", "x|y"),
                Arguments.of("{'a':42,'b':true}", "42|true"),
                Arguments.of("{'a':1.50,'b':-0.5}", "1.50|-0.5"),
                Arguments.of("{'a':1e3,'b':12345678901234567890}", "1000|12345678901234567890"),
                Arguments.of("{'a':'','b':'y'}", "|y"),
                Arguments.of("{'a':'x|y','b':'z'}", "x\\|y|z"),
                Arguments.of("{'a':'x','b':'y|z'}", "x|y\\|z"),
                Arguments.of("{'a':'back\\\\slash','b':'|'}", "back\\\\slash|\\|"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("scalarTexts")
    void keyJoinsTheTextOfEachPartEscaped(String body, String expectedKey) {
        assertThat(key(twoParts, json(body))).isEqualTo(expectedKey);
    }

    @Test
    void partsThatOnlyDifferInWhereTheSeparatorIsNeverCollide() {
        assertThat(key(twoParts, json("{'a':'a|b','b':'c'}"))).isNotEqualTo(key(twoParts, json("{'a':'a','b':'b|c'}")));
        assertThat(key(twoParts, json("{'a':'a\\\\','b':'b'}"))).isNotEqualTo(key(twoParts, json("{'a':'a','b':'\\\\b'}")));
    }

    @Test
    void extractTakesTheFirstCaptureGroupOfTheFirstMatch() {
        MessageIntake prefix = new MessageIntake(PipelineFixture.config(pipeline("p").key(extract("$.k", "^(.*)/[^/]+$"))));
        MessageIntake noGroup = new MessageIntake(PipelineFixture.config(pipeline("p").key(extract("$.k", "batch-\\d+"))));

        assertThat(key(prefix, json("{'k':'uploads/batch-7/part-001.csv'}"))).isEqualTo("uploads/batch-7");
        assertThat(key(noGroup, json("{'k':'uploads/batch-7/part-001.csv'}"))).isEqualTo("batch-7");
        assertThat(rejection(prefix, json("{'k':'README'}"))).satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.MISSING_KEY);
            assertThat(r.detail()).isEqualTo("key part $.k ~ /^(.*)/[^/]+$/ does not match \"README\"");
        });
    }

    static Stream<Arguments> badKeys() {
        return Stream.of(
                Arguments.of("{'b':'y'}", RejectionReason.MISSING_KEY, "key part $.a is absent"),
                Arguments.of("{'a':null,'b':'y'}", RejectionReason.MISSING_KEY, "key part $.a is null"),
                Arguments.of("{'a':'x','b':{'id':1}}", RejectionReason.KEY_NOT_SCALAR, "key part $.b is an object {\"id\":1}"),
                Arguments.of("{'a':['x'],'b':'y'}", RejectionReason.KEY_NOT_SCALAR, "key part $.a is an array [\"x\"]"),
                Arguments.of("{'a':'tab\\there','b':'y'}", RejectionReason.KEY_CONTROL_CHARACTERS,
                        "key part $.a has control character U+0009 at index 3: \"tab\\there\""),
                Arguments.of("{'a':'nul\\u0000','b':'y'}", RejectionReason.KEY_CONTROL_CHARACTERS, "U+0000 at index 3: \"nul\\u0000\""),
                Arguments.of("{'a':'x','b':'del\\u007f'}", RejectionReason.KEY_CONTROL_CHARACTERS, "key part $.b has control character U+007F"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("badKeys")
    void rejectsKeysWithTheReasonAndThePath(String body, RejectionReason reason, String detail) {
        Rejected r = rejection(twoParts, json(body));

        assertThat(r.reason()).isEqualTo(reason);
        assertThat(r.detail()).contains(detail);
        assertThat(r.pipeline()).isEqualTo("p");
    }

    @Test
    void keyLengthIsBoundedInUtf8BytesAfterEscaping() {
        MessageIntake bounded = new MessageIntake(PipelineFixture.config(pipeline("p").key("$.a").maxKeyLength(10)));

        assertThat(key(bounded, json("{'a':'0123456789'}"))).hasSize(10);
        assertThat(rejection(bounded, json("{'a':'0123456789A'}"))).satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.KEY_TOO_LONG);
            assertThat(r.detail()).contains("is 11 UTF-8 bytes, over maxKeyLength 10").contains("\"0123456789A\"");
        });
        // 5 two-byte characters are 10 bytes; 6 are 12.
        assertThat(key(bounded, json("{'a':'ééééé'}"))).isEqualTo("ééééé");
        assertThat(rejection(bounded, json("{'a':'éééééé'}")).reason()).isEqualTo(RejectionReason.KEY_TOO_LONG);
        // Escaping counts: nine characters and one '|' become 11 bytes.
        assertThat(rejection(bounded, json("{'a':'012345678|'}")).reason()).isEqualTo(RejectionReason.KEY_TOO_LONG);
    }

    @Test
    void longOffendingValuesAreTruncatedInTheDetail() {
        MessageIntake bounded = new MessageIntake(PipelineFixture.config(pipeline("p").key("$.a").maxKeyLength(10)));

        Rejected r = rejection(bounded, json("{'a':'" + "k".repeat(5000) + "'}"));

        assertThat(r.detail()).contains("...(5000 chars)").hasSizeLessThan(300);
    }

    @Test
    void joinIsTheSameFunctionIntakeUses() {
        assertThat(GroupKeys.join(List.of("a|b", "c"))).isEqualTo("a\\|b|c");
        assertThat(GroupKeys.join(List.of("a", "b|c"))).isEqualTo("a|b\\|c");
    }
}
