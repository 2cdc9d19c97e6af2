package dev.fanin.core.intake;

import static dev.fanin.core.intake.Messages.json;
import static dev.fanin.core.intake.Messages.message;
import static dev.fanin.core.intake.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.Condition;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.config.Envelope;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Intake accepts a JSON number only if every stage can hold it exactly: 0, or a magnitude from 1e-300 to 1e300.
 * Outside that range the whole message is refused with NUMBER_OUT_OF_RANGE, naming the number and where it is, before
 * anything reads it (a 22-byte {@code 1e2147483000} used to throw OutOfMemoryError in a match rule).
 */
class NumberRangeTest {

    /** Matches on {@code $.type} as text, so a match rule reads every number it is given there. */
    private final MessageIntake intake = new MessageIntake(PipelineFixture.config(
            pipeline("p").when(new Condition(FieldPath.parse("$.type"), "t", null, null, null))));

    @ParameterizedTest
    @ValueSource(strings = {"1e2147483000", "-1e2147483000", "1e-2147483000", "0e-2147483000", "0e2147483000", "1E+400", "1e1000",
            "1e301", "1.0000001e300", "-2e300", "9.99e-301", "1e-400", "0e-301"})
    void aNumberOutOfRangeRefusesTheMessageNamingItAndWhereItIs(String number) {
        IntakeResult result = intake.parse(message(json("{'id':'k','type':'t','deep':{'list':[1,{'x':" + number + "}]}}")));

        assertThat(result.accepted()).isEmpty();
        assertThat(result.rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.NUMBER_OUT_OF_RANGE);
            assertThat(r.detail()).startsWith("body has the number ").contains(" at $.deep.list[1].x: ")
                    .contains("between 1E-300 and 1E+300");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e99999999999", "-1e-99999999999", "0e99999999999"})
    void anExponentNoDecimalHoldsIsOutOfRangeToo(String number) {
        IntakeResult result = intake.parse(message(json("{'id':'k','type':'t','x':" + number + "}")));

        assertThat(result.rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.NUMBER_OUT_OF_RANGE);
            assertThat(r.detail()).startsWith("body has a number whose exponent is out of range at line 1, column ");
        });
    }

    @Test
    void theNumberAMatchRuleReadsIsRefusedBeforeTheRuleReadsIt() {
        IntakeResult result = intake.parse(message(json("{'id':'k','type':1e2147483000}")));

        assertThat(result.rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.NUMBER_OUT_OF_RANGE);
            assertThat(r.detail()).contains("1E+2147483000 at $.type");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-0", "0.0", "0e300", "0e-300", "1e300", "-1e300", "1e-300", "-1e-300", "1E+300", "12345678901234567890.5",
            "9.999999999999999999e299", "123456789012345678901234567890123456789012345678901234567890123"})
    void numbersInRangeAreAccepted(String number) {
        assertThat(intake.parse(message(json("{'id':'k','type':'t','n':" + number + "}"))).accepted()).hasSize(1);
    }

    @Test
    void aNumberOutOfRangeInsideAnSnsMessageIsNamedThere() {
        MessageIntake sns = new MessageIntake(PipelineFixture.config(pipeline("s").envelope(Envelope.SNS)));
        String body = "{\"Type\":\"Notification\",\"MessageId\":\"m\",\"TopicArn\":\"t\",\"Message\":\"{\\\"id\\\":\\\"k\\\",\\\"n\\\":1e999}\"}";

        IntakeResult result = sns.parse(message(body));

        assertThat(result.rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.NUMBER_OUT_OF_RANGE);
            assertThat(r.detail()).startsWith("$envelope.Message has the number 1E+999 at $.n");
        });
    }

    @Test
    void aNumericEventIdIsItsCanonicalDecimalSoTheSameNumberIsTheSameEvent() {
        MessageIntake ids = new MessageIntake(PipelineFixture.config(pipeline("p").eventId("$.eid")));

        List<String> texts = List.of("0", "0.0", "-0.0", "0e5", "1.50", "1.5", "15e-1", "1e2", "100", "100.000")
                .stream().map(n -> ids.parse(message(json("{'id':'k','eid':" + n + "}"))).accepted().get(0).eventId()).toList();

        assertThat(texts).containsExactly("0", "0", "0", "0", "1.5", "1.5", "1.5", "100", "100", "100");
        assertThat(ids.parse(message(json("{'id':'k','eid':'0.0'}"))).accepted().get(0).eventId())
                .as("a string id stays as sent").isEqualTo("0.0");
    }
}
