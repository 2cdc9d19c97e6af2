package dev.fanin.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The character rule exactly as SQS states it, and the helpers that keep text within it. */
class SinkTextTest {

    /** SQS's rule, written from its documentation: #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF. */
    static boolean sqsAllows(int codePoint) {
        return codePoint == 0x9 || codePoint == 0xA || codePoint == 0xD || (codePoint >= 0x20 && codePoint <= 0xD7FF)
                || (codePoint >= 0xE000 && codePoint <= 0xFFFD) || (codePoint >= 0x10000 && codePoint <= 0x10FFFF);
    }

    @Test
    void everyBmpCharacterAloneIsValidExactlyWhenSqsAllowsIt() {
        for (int c = 0; c <= 0xFFFF; c++) {
            String s = "a" + (char) c + "b";
            assertThat(SinkText.isValid(s)).as("U+%04X", c).isEqualTo(sqsAllows(c));
            assertThat(SinkText.isValid(SinkText.escapeInvalid(s))).as("escaped U+%04X", c).isTrue();
        }
    }

    @Test
    void pairedSurrogatesAreValidAndUnpairedOnesAreNot() {
        assertThat(SinkText.isValid("\ud83d\ude80")).isTrue();
        assertThat(SinkText.isValid("\udbff\udfff")).as("U+10FFFF").isTrue();
        assertThat(SinkText.firstInvalid("ab\ud83d")).isEqualTo(2);
        assertThat(SinkText.firstInvalid("\ude80\ud83d")).isZero();
        assertThat(SinkText.firstUnpairedSurrogate("x\ud83d\ude80y\ud800")).isEqualTo(4);
        assertThat(SinkText.escapeInvalid("a\ud800b\uffff\u0001\t\ud83d\ude80")).isEqualTo("a\\uD800b\\uFFFF\\u0001\t\ud83d\ude80");
    }

    @Test
    void cuttingToBytesNeverSplitsACharacter() {
        assertThat(SinkText.cutToBytes("abc", 2)).isEqualTo("ab");
        assertThat(SinkText.cutToBytes("aé", 2)).isEqualTo("a");
        assertThat(SinkText.cutToBytes("aé", 3)).isEqualTo("aé");
        assertThat(SinkText.cutToBytes("a\ud83d\ude80", 4)).isEqualTo("a");
        assertThat(SinkText.cutToBytes("a\ud83d\ude80", 5)).isEqualTo("a\ud83d\ude80");
        assertThat(SinkText.cutToBytes("€€", 5)).isEqualTo("€");
        assertThat(SinkText.utf8Length("a\ud83d\ude80é€")).isEqualTo(1 + 4 + 2 + 3);
    }
}
