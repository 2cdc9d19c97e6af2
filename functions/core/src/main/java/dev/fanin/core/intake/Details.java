package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Renders offending values for rejection details: at most {@value #MAX_CHARS} characters, quoted, with control
 * characters, quotes and backslashes escaped so that a detail is always one printable line.
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
        String shown = value;
        String cut = "";
        if (value.length() > MAX_CHARS) {
            int end = Character.isHighSurrogate(value.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
            shown = value.substring(0, end);
            cut = "...(" + value.length() + " chars)";
        }
        return "\"" + escape(shown) + "\"" + cut;
    }

    /** Any JSON value: strings quoted, other values as compact JSON, both truncated. */
    static String value(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "(absent)";
        }
        if (node.isTextual()) {
            return quote(node.textValue());
        }
        // Compact JSON already escapes control characters inside strings, and has none outside them.
        String json = node.toString();
        return json.length() > MAX_CHARS ? json.substring(0, MAX_CHARS) + "...(" + json.length() + " chars)" : json;
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

    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7F) {
                        out.append(String.format("\\u%04X", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
