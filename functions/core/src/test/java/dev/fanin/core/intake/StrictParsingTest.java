package dev.fanin.core.intake;

import static dev.fanin.core.intake.Messages.message;
import static dev.fanin.core.intake.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.FaninConfig;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StrictParsingTest {

    private final MessageIntake intake = new MessageIntake(PipelineFixture.config(pipeline("p").maxPayloadBytes(4096)));

    static Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("not json", "hello world", RejectionReason.MALFORMED_JSON, "line 1, column"),
                Arguments.of("truncated", "{\"id\":\"a\",\"n\":", RejectionReason.MALFORMED_JSON, "line 1, column 15"),
                Arguments.of("trailing garbage", "{\"id\":\"a\"} x", RejectionReason.MALFORMED_JSON, "line 1, column"),
                Arguments.of("second document", "{\"id\":\"a\"}{\"id\":\"b\"}", RejectionReason.MALFORMED_JSON, "line 1, column"),
                Arguments.of("duplicate field", "{\"id\":\"a\",\"id\":\"b\"}", RejectionReason.MALFORMED_JSON, "Duplicate field 'id'"),
                Arguments.of("error on line 3", "{\n\"id\": \"a\",\n\"n\": tru\n}", RejectionReason.MALFORMED_JSON, "line 3, column"),
                Arguments.of("empty", "", RejectionReason.MALFORMED_JSON, "body is empty"),
                Arguments.of("whitespace", "  \n ", RejectionReason.MALFORMED_JSON, "body is empty"),
                Arguments.of("comment", "{\"id\":\"a\" /* c */}", RejectionReason.MALFORMED_JSON, "line 1, column"),
                Arguments.of("NaN", "{\"id\":NaN}", RejectionReason.MALFORMED_JSON, "line 1, column"),
                Arguments.of("array", "[{\"id\":\"a\"}]", RejectionReason.NOT_A_JSON_OBJECT, "body is an array"),
                Arguments.of("string", "\"id\"", RejectionReason.NOT_A_JSON_OBJECT, "body is a string \"id\""),
                Arguments.of("too deep", "{\"id\":" + "[".repeat(70) + "]".repeat(70) + "}", RejectionReason.JSON_TOO_COMPLEX, "nesting depth"),
                Arguments.of("number too long", "{\"id\":" + "9".repeat(80) + "}", RejectionReason.JSON_TOO_COMPLEX, "number length"),
                // A field name must be text that can be written back and read again (it may be sampled into state).
                Arguments.of("name with an escaped lone surrogate", "{\"id\":\"a\",\"x\\ud800\":1}", RejectionReason.MALFORMED_JSON,
                        "Broken surrogate pair"),
                Arguments.of("name with a raw lone surrogate", "{\"id\":\"a\",\"x\ud800\":1}", RejectionReason.MALFORMED_JSON,
                        "a field name has an unpaired UTF-16 surrogate: \"x\\uD800\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    void rejectsBodiesThatAreNotOneStrictJsonObject(String name, String body, RejectionReason reason, String detailMentions) {
        IntakeResult result = intake.parse(message(body));

        assertThat(result.accepted()).isEmpty();
        assertThat(result.rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(reason);
            assertThat(r.detail()).contains(detailMentions);
            assertThat(r.recordIndex()).isEqualTo(Rejected.WHOLE_MESSAGE);
            assertThat(r.pipeline()).isNull();
        });
    }

    /** A review: the detail named only the depth and number limits, not the one a long field name passes. */
    @Test
    void aFieldNameLongerThanTheParserTakesIsNamedAsSuch() {
        MessageIntake large = new MessageIntake(PipelineFixture.config(pipeline("p")));
        String body = "{\"id\":\"a\",\"" + "n".repeat(50_001) + "\":1}";

        assertThat(large.parse(message(body)).rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.JSON_TOO_COMPLEX);
            assertThat(r.detail()).contains("Name length", "field name length 50000");
        });
    }

    @Test
    void nestingExactlyAtTheLimitIsAccepted() {
        // The object itself is level 1, so 63 arrays inside it make 64 levels.
        String body = "{\"id\":\"a\",\"deep\":" + "[".repeat(63) + "]".repeat(63) + "}";

        assertThat(intake.parse(message(body)).accepted()).hasSize(1);
    }

    @Test
    void bodyOverTheLargestMaxPayloadBytesIsRejectedBeforeParsing() {
        FaninConfig config = PipelineFixture.config(pipeline("small").maxPayloadBytes(100), pipeline("large").maxPayloadBytes(200));
        MessageIntake twoBounds = new MessageIntake(config);
        String exactly200 = "{\"id\":\"a\",\"pad\":\"" + "x".repeat(200 - 19) + "\"}";
        String notEvenJson201 = "{" + "x".repeat(200);

        assertThat(exactly200).hasSize(200);
        assertThat(twoBounds.parse(message(notEvenJson201)).rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.PAYLOAD_TOO_LARGE);
            assertThat(r.detail()).contains("201 UTF-8 bytes").contains("(200)");
        });
        // Within the largest bound, but over the chosen pipeline's own bound (the first pipeline matches everything).
        assertThat(twoBounds.parse(message(exactly200)).rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.PAYLOAD_TOO_LARGE);
            assertThat(r.pipeline()).isEqualTo("small");
            assertThat(r.detail()).contains("200 UTF-8 bytes, over maxPayloadBytes 100 of pipeline 'small'");
        });
    }

    @Test
    void payloadSizeIsCountedInUtf8Bytes() {
        MessageIntake small = new MessageIntake(PipelineFixture.config(pipeline("p").maxPayloadBytes(30)));
        String twentyOneChars = "{\"id\":\"" + "é".repeat(12) + "\"}"; // 21 chars, 33 bytes

        assertThat(small.parse(message(twentyOneChars)).rejected()).singleElement()
                .extracting(Rejected::reason).isEqualTo(RejectionReason.PAYLOAD_TOO_LARGE);
    }

    @Test
    void malformedDetailQuotesTheStartOfTheBodyWithControlCharactersEscaped() {
        Rejected r = intake.parse(message("oops\u0001" + "z".repeat(300))).rejected().get(0);

        assertThat(r.detail()).contains("\"oops\\u0001zz").contains("...(305 chars)");
        assertThat(r.detail()).doesNotContain("\u0001");
    }
}
