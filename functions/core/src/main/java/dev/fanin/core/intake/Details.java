package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Renders offending values for rejection details: at most {@value #MAX_CHARS} characters, quoted, with control
 * characters, unpaired surrogates, non-characters, quotes and backslashes escaped, so that a detail is always one
 * printable line that every sink accepts (it travels in a dead letter's {@code fanin-reason} attribute).
 */
final class Details {

    static final int MAX_CHARS = 100;

    private Details() {
    }

    /** A string value, quoted and escaped, truncated with a note of how much was cut. */
    static String quote(String value) {
        if (value == null) {
            return "null";
        }
        String cut = value.length() > MAX_CHARS ? "...(" + value.length() + " chars)" : "";
        return "\"" + escape(cut(value)) + "\"" + cut;
    }

    /** The first {@value #MAX_CHARS} characters, never ending inside a surrogate pair. */
    static String cut(String value) {
        if (value.length() <= MAX_CHARS) {
            return value;
        }
        int end = Character.isHighSurrogate(value.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
        return value.substring(0, end);
    }

    /** Any JSON value: strings quoted, other values as compact JSON, both truncated. */
    static String value(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "(absent)";
        }
        if (node.isTextual()) {
            return quote(node.textValue());
        }
        // Compact JSON escapes control characters inside strings and has none outside them; escape() catches the rest.
        String json = node.toString();
        return escapeUnprintable(cut(json)) + (json.length() > MAX_CHARS ? "...(" + json.length() + " chars)" : "");
    }

    /** "an object", "a number"...: the JSON type of a value, for messages such as "is an object, expected a string". */
    static String kind(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "absent";
        }
        if (node.isObject()) {
            return "an object";
        }
        if (node.isArray()) {
            return "an array";
        }
        if (node.isTextual()) {
            return "a string";
        }
        if (node.isNumber()) {
            return "a number";
        }
        if (node.isBoolean()) {
            return "a boolean";
        }
        return node.isNull() ? "null" : node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    }

    /** Quotes and backslashes escaped, and every character {@link #escapeUnprintable} escapes. */
    static String escape(String s) {
        return escapeUnprintable(s.replace("\\", "\\\\").replace("\"", "\\\""));
    }

    /**
     * Control characters (as {@code \n}, {@code \r}, {@code \t} or {@code \\uXXXX}), unpaired surrogates and the
     * non-characters U+FFFE and U+FFFF escaped as {@code \\uXXXX}: what remains is valid in every sink
     * ({@link dev.fanin.core.text.SinkText}) and reads as one line.
     */
    private static String escapeUnprintable(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c < 0x20 || c == 0x7F || Character.isSurrogate(c) || c == 0xFFFE || c == 0xFFFF) {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
