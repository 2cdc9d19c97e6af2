package dev.fanin.sim;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.fanin.core.text.ExactJson;
import java.util.Random;

/**
 * Values chosen to break exactness or sinks, drawn from a seeded random: numbers at and beyond every range edge,
 * strings of surrogates (paired and not), non-characters, control characters, quotes and escapes, and sizes up to
 * what a message holds. Every text is written into JSON the way a producer escapes it, so a body is always what SQS
 * could deliver; whether intake accepts it is for fanin to decide (with a reason when it does not).
 */
final class HostileValues {

    private static final String[] EXPONENTS = {"", "e0", "E+2", "e-7", "e300", "e-300", "e301", "e-301", "e400", "E-400", "e308",
            "e2147483000", "e-2147483000", "e99999999999", "e-99999999999"};
    private static final char[] NASTY = {'\ud800', '\udbff', '\udc00', '\udfff', '\ufffe', '\uffff', '\ufffd', '\u0000', '\u0001', '\u001f',
            '\u007f', '\u0085', '\u2028', '"', '\\', '|', '/', 'é', '€', 'a', ' '};

    private final Random random;

    HostileValues(Random random) {
        this.random = random;
    }

    boolean chance(double p) {
        return random.nextDouble() < p;
    }

    int between(int low, int high) {
        return low + random.nextInt(high - low + 1);
    }

    /** A JSON number's text: up to 64 characters of digits around the range's edges, in every notation. */
    String number() {
        if (chance(0.1)) {
            return new String[] {"0", "-0", "0.0", "0e-300", "0e-301", "0e2147483000", "1e300", "-1e300", "1e-300", "1E+300",
                    "12345678901234567890.5", "0.25", "9.999999999999999999999999e299", "1.0000000000000000000000000000001e-300"}[random.nextInt(14)];
        }
        StringBuilder n = new StringBuilder(chance(0.3) ? "-" : "");
        n.append(1 + random.nextInt(9));
        int digits = random.nextInt(chance(0.2) ? 40 : 12);
        for (int i = 0; i < digits; i++) {
            n.append(random.nextInt(10));
        }
        if (chance(0.5)) {
            n.append('.');
            int fraction = 1 + random.nextInt(chance(0.2) ? 20 : 4);
            for (int i = 0; i < fraction; i++) {
                n.append(random.nextInt(10));
            }
        }
        // Mostly an exponent within the range, else any of the edges.
        n.append(EXPONENTS[random.nextInt(chance(0.7) ? 6 : EXPONENTS.length)]);
        return n.toString();
    }

    /** Text mixing the characters that escape, encode or are refused worst, up to {@code maxChars}, with pairs. */
    String text(int maxChars) {
        return text(maxChars, NASTY);
    }

    /**
     * Text an identity may hold (no control character or unpaired surrogate) but that escapes and encodes worst:
     * quotes, backslashes, separators, U+FFFE, U+FFFF, line separators, pairs.
     */
    String identity(int maxChars) {
        return text(maxChars, IDENTITY_NASTY);
    }

    private static final char[] IDENTITY_NASTY = {'\ufffe', '\uffff', '\ufffd', '\u0085', '\u2028', '"', '\\', '|', '/', 'é', '€', ' '};

    private String text(int maxChars, char[] nasty) {
        int length = random.nextInt(maxChars + 1);
        StringBuilder s = new StringBuilder(length);
        while (s.length() < length) {
            double roll = random.nextDouble();
            if (roll < 0.3) {
                s.append(nasty[random.nextInt(nasty.length)]);
            } else if (roll < 0.4) {
                s.appendCodePoint(0x1F600 + random.nextInt(80));
            } else if (roll < 0.45 && nasty == NASTY) {
                s.append((char) random.nextInt(0x10000));
            } else {
                s.append((char) ('a' + random.nextInt(26)));
            }
        }
        return s.toString();
    }

    /** A big field: mostly plain, sometimes incompressible, up to {@code maxChars}. */
    String big(int maxChars) {
        int length = random.nextInt(maxChars + 1);
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append((char) (chance(0.5) ? 'x' : ' ' + 1 + random.nextInt(94)));
        }
        return s.toString().replace("\\", "/").replace("\"", "'");
    }

    /** {@code text} as a JSON string, escaped the way a producer writes it (SQS-valid ASCII escapes for the rest). */
    static String json(String text) {
        return ExactJson.write(TextNode.valueOf(text));
    }
}
