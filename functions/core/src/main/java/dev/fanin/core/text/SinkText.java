package dev.fanin.core.text;

import java.nio.charset.StandardCharsets;

/**
 * Text as the services fanin writes to accept it. A Java string may hold an unpaired UTF-16 surrogate, which has no
 * UTF-8 encoding (the AWS SDK sends it as {@code ?}, so two different strings would arrive as one), and characters
 * that SQS refuses in a message body or attribute: SQS allows exactly {@code #x9 | #xA | #xD | [#x20-#xD7FF] |
 * [#xE000-#xFFFD] | [#x10000-#x10FFFF]} (the XML 1.0 character set). That set is also valid in an EventBridge detail,
 * a DynamoDB string and a JSON log line, so text within it is valid in every sink.
 */
public final class SinkText {

    private SinkText() {
    }

    /** The index of the first unpaired UTF-16 surrogate in {@code s}, or -1 when every surrogate is paired. */
    public static int firstUnpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether every character of {@code s} is one SQS allows (and so every sink). */
    public static boolean isValid(String s) {
        return firstInvalid(s) < 0;
    }

    /** The index of the first character outside the set SQS allows, or -1. */
    public static int firstInvalid(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (!allowedAlone(c)) {
                return i;
            }
        }
        return -1;
    }

    /** A UTF-16 unit that is valid on its own: {@code #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD]}. */
    private static boolean allowedAlone(char c) {
        return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD);
    }

    /**
     * {@code s} with every character outside the allowed set written as the six characters {@code \\uXXXX}: valid in
     * every sink, readable, and distinct texts stay distinct as long as the input has no such escapes of its own (use
     * it for messages, not for identities).
     */
    public static String escapeInvalid(String s) {
        int first = firstInvalid(s);
        return first < 0 ? s : escapeFrom(s, first);
    }

    /**
     * JSON text with the characters outside the allowed set (in JSON text they can only be inside strings) replaced
     * by their {@code \\uXXXX} escapes, which a JSON reader turns back into the same characters.
     */
    static String escapeInJson(String json) {
        return escapeInvalid(json);
    }

    private static String escapeFrom(String s, int first) {
        StringBuilder out = new StringBuilder(s.length() + 16).append(s, 0, first);
        for (int i = first; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
            } else if (allowedAlone(c)) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04X", (int) c));
            }
        }
        return out.toString();
    }

    /**
     * The longest prefix of {@code s} of at most {@code maxBytes} UTF-8 bytes that does not end inside a surrogate
     * pair.
     */
    public static String cutToBytes(String s, int maxBytes) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int width;
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                width = 4;
            } else {
                width = c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 1 : 3;
            }
            if (bytes + width > maxBytes) {
                return s.substring(0, i);
            }
            bytes += width;
            if (width == 4) {
                i++;
            }
        }
        return s;
    }

    /** UTF-8 bytes of {@code s} (an unpaired surrogate counts as the one byte it would be sent as). */
    public static int utf8Length(String s) {
        // Exact without allocating for ASCII-only text, the common case.
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return i + s.substring(i).getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return s.length();
    }
}
