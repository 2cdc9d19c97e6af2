package dev.fanin.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** What fanin writes is valid for every sink, and reads back as exactly the strings and numbers it held. */
class ExactJsonProperties {

    /** Any UTF-16 text, with what matters over-represented: lone surrogates, non-characters, controls, pairs. */
    @Provide
    Arbitrary<String> anyText() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(40),
                Arbitraries.strings().withChars('\ud800', '\udbff', '\udc00', '\udfff', '\ufffe', '\uffff', '\u0000', '\u001f',
                        '\u007f', '\\', '"', 'a', '\u2028').ofMaxLength(12));
    }

    @Provide
    Arbitrary<BigDecimal> inRangeNumbers() {
        return Arbitraries.oneOf(
                Arbitraries.bigDecimals().between(new BigDecimal("-1e30"), new BigDecimal("1e30")).ofScale(12),
                Arbitraries.integers().between(-300, 300).map(e -> BigDecimal.ONE.scaleByPowerOfTen(e)),
                Arbitraries.of(new BigDecimal("12345678901234567890.5"), new BigDecimal("1.50"), new BigDecimal("-0.000"),
                        new BigDecimal("9.999999999999999999999999e299")));
    }

    /**
     * Field names are what intake's parser read (the same Jackson reader, which refuses an unpaired surrogate escape in
     * a name), so they are valid UTF-16; values may hold anything.
     */
    @Provide
    Arbitrary<String> names() {
        return anyText().filter(s -> SinkText.firstUnpairedSurrogate(s) < 0);
    }

    @Property(tries = 2000)
    void stringsAreWrittenValidForEverySinkAndReadBackExactly(@ForAll("anyText") String value, @ForAll("names") String name)
            throws Exception {
        ObjectNode node = JsonNodeFactory.instance.objectNode().put(name, value);
        node.putArray("list").add(value);

        String written = ExactJson.write(node);

        assertThat(SinkText.isValid(written)).as(written).isTrue();
        assertThat(ExactJson.read(written)).isEqualTo(node);
    }

    @Property(tries = 1000)
    void numbersAreWrittenAndReadBackAsTheSameDecimal(@ForAll("inRangeNumbers") BigDecimal a, @ForAll("inRangeNumbers") BigDecimal b)
            throws Exception {
        BigDecimal sum = a.add(b);
        ObjectNode node = JsonNodeFactory.instance.objectNode().put("a", a).put("sum", sum);

        JsonNode back = ExactJson.read(ExactJson.write(node));

        assertThat(back.path("a").decimalValue()).isEqualByComparingTo(a);
        assertThat(back.path("sum").decimalValue()).isEqualByComparingTo(sum);
        assertThat(back.path("sum").isDouble()).isFalse();
        assertThat(ExactJson.write(node).length()).isLessThan(ExactJson.MAX_SUM_DIGITS + 40);
    }
}
