package dev.fanin.core.intake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.fanin.core.text.SinkText;
import org.junit.jupiter.api.Test;

/** A rejection detail travels in an SQS attribute: it is always valid text for every sink, and one line. */
class DetailsTest {

    @Test
    void aValueCutAtItsLimitNeverEndsInsideASurrogatePair() {
        String ninetyNine = "x".repeat(Details.MAX_CHARS - 1);
        String value = ninetyNine + "\ud83d\ude80" + "tail";

        assertThat(Details.quote(value)).isEqualTo("\"" + ninetyNine + "\"...(105 chars)");
        // Objects and arrays are cut as JSON text: Details.value cut without the guard before.
        String json = Details.value(JsonNodeFactory.instance.arrayNode().add("x".repeat(Details.MAX_CHARS - 3) + "\ud83d\ude80"));
        assertThat(SinkText.isValid(json)).as(json).isTrue();
        assertThat(json).startsWith("[\"" + "x".repeat(Details.MAX_CHARS - 3) + "...(");
    }

    @Test
    void charactersNoSinkTakesAreEscapedWhereverTheyAre() {
        String nasty = "a\ud800b\udfffc\uffff\ufffe\u0007\u007f\n\"\\\ud83d\ude80";

        assertThat(Details.quote(nasty)).isEqualTo("\"a\\uD800b\\uDFFFc\\uFFFF\\uFFFE\\u0007\\u007F\\n\\\"\\\\\ud83d\ude80\"");
        assertThat(Details.value(JsonNodeFactory.instance.objectNode().put("k", nasty))).isEqualTo(
                "{\"k\":\"a\\uD800b\\uDFFFc\\uFFFF\\uFFFE\\u0007\u007f\\n\\\"\\\\\ud83d\ude80\"}".replace("\u007f", "\\u007F"));
        assertThat(SinkText.isValid(Details.quote(nasty))).isTrue();
    }
}
