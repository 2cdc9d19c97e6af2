package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.text.SinkText;

/**
 * The text of a JSON scalar, as match conditions, key parts and trigger conditions see it: a string is its value, a
 * number its decimal text ({@code 1200}, {@code 1.50}; exponents are written out), a boolean {@code true}/{@code false}.
 */
public final class Scalars {

    private Scalars() {
    }

    /** True for a string, number or boolean; false for absent, null, objects and arrays. */
    static boolean isScalar(JsonNode node) {
        return node != null && (node.isTextual() || node.isNumber() || node.isBoolean());
    }

    static boolean isAbsent(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull();
    }

    /** The text of a scalar; call only when {@link #isScalar} holds. */
    public static String text(JsonNode node) {
        return ExactJson.scalarText(node);
    }

    /**
     * The text of a scalar used as an identity (an event id): as {@link #text}, except that a number is its canonical
     * decimal, so ids that are the same number are the same id: {@code 0}, {@code 0.0} and {@code 0e3} are
     * {@code "0"}, {@code 1.50} is {@code "1.5"}, {@code 1e2} is {@code "100"}. Numbers are in range
     * ({@link dev.fanin.core.text.ExactJson#inRange}), so the text is at most a few hundred characters.
     */
    static String identityText(JsonNode node) {
        if (node.isNumber() && !node.isIntegralNumber()) {
            return node.decimalValue().stripTrailingZeros().toPlainString();
        }
        return text(node);
    }

    static int utf8Length(String s) {
        return SinkText.utf8Length(s);
    }

    /**
     * The index of the first control character (U+0000-U+001F, U+007F) or unpaired UTF-16 surrogate, or -1: what an
     * identity (a key part, an event id) must not hold. An unpaired surrogate has no UTF-8 encoding, so stored or
     * hashed it would become "?" and two different ids would collide.
     */
    static int firstControlCharacter(String s) {
        int surrogate = SinkText.firstUnpairedSurrogate(s);
        int end = surrogate < 0 ? s.length() : surrogate;
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                return i;
            }
        }
        return surrogate;
    }

    /** "an unpaired UTF-16 surrogate U+D800 at index 3" or "control character U+0007 at index 3", for a detail. */
    static String describeCharacterAt(String s, int index) {
        String what = Character.isSurrogate(s.charAt(index)) ? "an unpaired UTF-16 surrogate " : "control character ";
        return what + String.format("U+%04X", (int) s.charAt(index)) + " at index " + index;
    }
}
