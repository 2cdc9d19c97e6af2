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
