package dev.fanin.core.text;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;

/**
 * JSON text as fanin writes it into every sink and reads it back (window state, emissions, side-output records,
 * timer messages; what the replay reads from its queues): every number is held exactly, as a {@link BigDecimal} with
 * its scale ({@code 1.50} stays {@code 1.50}), never as a {@code double}; every string is valid in every sink
 * ({@link #write}).
 *
 * <p><b>The numbers fanin holds.</b> Intake accepts a JSON number only if it is 0 or its magnitude is between
 * {@code 1e-300} and {@code 1e300} (and it is at most 64 characters long). Every such number is a finite double, so
 * a consumer reading doubles gets a finite value; and the sum of up to ten million of them needs fewer than
 * {@value #MAX_SUM_DIGITS} digits, so every sum fanin computes is exact and readable here. Outside that range a
 * number could not be held by every stage (a {@code 1e2147483000} would need gigabytes to write out).
 */
public final class ExactJson {

    /** The largest magnitude intake accepts. */
    public static final BigDecimal MAX_MAGNITUDE = new BigDecimal("1e300");
    /** The smallest non-zero magnitude intake accepts. */
    public static final BigDecimal MIN_MAGNITUDE = new BigDecimal("1e-300");
    /**
     * The most characters of a number fanin writes: an accepted number has at most 64 characters, so its digits lie
     * between 10^300 and 10^-364; a sum of up to 10^7 of them stays below 10^308 and keeps that last digit.
     */
    public static final int MAX_SUM_DIGITS = 700;
    private static final int MAX_ZERO_SCALE = 300;

    private static final ObjectReader READER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            // Legacy states (before the range above) may hold longer numbers; reading them costs little.
                            .maxNumberLength(100_000)
                            .build())
                    .build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build()
            .reader();

    private ExactJson() {
    }

    /**
     * Compact JSON text of {@code node} that every sink takes as it is: numbers exact ({@code BigDecimal} text), and
     * the characters SQS refuses and UTF-8 cannot encode (unpaired surrogates, U+FFFE, U+FFFF) written as
     * {@code \\uXXXX} escapes (controls already are), so the text reads back as the same strings
     * ({@link SinkText#isValid} holds for the result).
     */
    public static String write(JsonNode node) {
        return SinkText.escapeInJson(node.toString());
    }

    /** The UTF-8 bytes of {@link #write} of {@code node}: what it takes in a sink, and in a budget. */
    public static int bytes(JsonNode node) {
        return node.isTextual() ? stringBytes(node.textValue()) : SinkText.utf8Length(write(node));
    }

    /**
     * The UTF-8 bytes of {@code s} written as a JSON string by {@link #write}, quotes included, without writing it:
     * {@code "} and {@code \} take 2, {@code \b \t \n \f \r} 2, other controls, unpaired surrogates, U+FFFE and
     * U+FFFF 6 ({@code \\uXXXX}), a surrogate pair 4, anything else its UTF-8 length.
     */
    public static int stringBytes(String s) {
        int bytes = 2;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (c == '"' || c == '\\' || c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r') {
                bytes += 2;
            } else if (c < 0x20 || Character.isSurrogate(c) || c == 0xFFFE || c == 0xFFFF) {
                bytes += 6;
            } else {
                bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
            }
        }
        return bytes;
    }

    /**
     * The text of a scalar (a string, number or boolean): a string is its value, a number its exact decimal text with
     * no exponent ({@code 1200}, {@code 1.50}, {@code 1e2} is {@code 100}), a boolean {@code true}/{@code false}. Event
     * values and the configuration's values read by {@link #read} or with the same number features compare by it.
     */
    public static String scalarText(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBigDecimal()) {
            return node.decimalValue().toPlainString();
        }
        return node.asText();
    }

    /** Reads JSON text, numbers as exact decimals. */
    public static JsonNode read(String text) throws JsonProcessingException {
        return READER.readTree(text);
    }

    /**
     * Whether intake accepts {@code number}: 0 (written with an exponent of at most 300, since {@code 0e-2147483000}
     * too would take gigabytes in plain notation), or a magnitude from {@link #MIN_MAGNITUDE} to
     * {@link #MAX_MAGNITUDE}.
     */
    public static boolean inRange(BigDecimal number) {
        if (number.signum() == 0) {
            return Math.abs((long) number.scale()) <= MAX_ZERO_SCALE;
        }
        // compareTo looks at the exponents first, so even 1e2147483000 compares without being expanded.
        BigDecimal magnitude = number.abs();
        return magnitude.compareTo(MAX_MAGNITUDE) <= 0 && magnitude.compareTo(MIN_MAGNITUDE) >= 0;
    }
}
