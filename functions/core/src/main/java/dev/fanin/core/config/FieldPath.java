package dev.fanin.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A small, safe subset of JSONPath that addresses one value: {@code $.a.b}, {@code $.items[0].id},
 * {@code $['key with spaces']}, {@code $.detail-type}. A path rooted at {@code $envelope} reads the envelope
 * (the whole SQS body, or for S3 the notification record) instead of the unwrapped payload.
 *
 * <p>No wildcards, filters or recursion: a path names exactly one value or nothing, so reading is O(depth).
 */
public final class FieldPath {

    /** Which document a path reads. */
    public enum Root { PAYLOAD, ENVELOPE }

    private sealed interface Segment permits Field, Index { }

    private record Field(String name) implements Segment { }

    private record Index(int index) implements Segment { }

    private final String expression;
    private final Root root;
    private final List<Segment> segments;

    private FieldPath(String expression, Root root, List<Segment> segments) {
        this.expression = expression;
        this.root = root;
        this.segments = List.copyOf(segments);
    }

    /**
     * Parses a path.
     *
     * @throws IllegalArgumentException with a message saying what is wrong and at which character
     */
    public static FieldPath parse(String expression) {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("is empty; use e.g. \"$.detail.id\"");
        }
        String text = expression.strip();
        Root root;
        int i;
        if (text.startsWith("$envelope")) {
            root = Root.ENVELOPE;
            i = "$envelope".length();
        } else if (text.startsWith("$")) {
            root = Root.PAYLOAD;
            i = 1;
        } else {
            throw new IllegalArgumentException("\"" + expression + "\" must start with \"$\" (payload) or \"$envelope\"; use e.g. \"$.detail.id\"");
        }
        List<Segment> segments = new ArrayList<>();
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '.') {
                int start = ++i;
                while (i < text.length() && isNameChar(text.charAt(i))) {
                    i++;
                }
                if (start == i) {
                    throw new IllegalArgumentException("\"" + expression + "\" has an empty field name at character " + start
                            + "; field names are letters, digits, '_' and '-', or use ['name']");
                }
                segments.add(new Field(text.substring(start, i)));
            } else if (c == '[') {
                int close = text.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("\"" + expression + "\" has an unclosed '[' at character " + i);
                }
                String inside = text.substring(i + 1, close).strip();
                if (inside.length() >= 2 && (inside.startsWith("'") && inside.endsWith("'") || inside.startsWith("\"") && inside.endsWith("\""))) {
                    segments.add(new Field(inside.substring(1, inside.length() - 1)));
                } else if (inside.matches("\\d{1,9}")) {
                    segments.add(new Index(Integer.parseInt(inside)));
                } else {
                    throw new IllegalArgumentException("\"" + expression + "\" has [" + inside + "] at character " + i
                            + "; use [0] for an array index or ['name'] for a field");
                }
                i = close + 1;
            } else {
                throw new IllegalArgumentException("\"" + expression + "\" has an unexpected '" + c + "' at character " + i
                        + "; wildcards, filters and functions are not supported");
            }
        }
        return new FieldPath(text, root, segments);
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-';
    }

    /** Reads the value at this path, or a {@link MissingNode} when any step is absent or of the wrong kind. */
    public JsonNode read(JsonNode payload, JsonNode envelope) {
        JsonNode node = root == Root.ENVELOPE ? envelope : payload;
        for (Segment segment : segments) {
            if (node == null || node.isMissingNode()) {
                return MissingNode.getInstance();
            }
            if (segment instanceof Field f) {
                node = node.isObject() ? node.path(f.name()) : MissingNode.getInstance();
            } else if (segment instanceof Index ix) {
                node = node.isArray() ? node.path(ix.index()) : MissingNode.getInstance();
            }
        }
        return node == null ? MissingNode.getInstance() : node;
    }

    /** Reads the value at this path in the payload. */
    public JsonNode read(JsonNode payload) {
        return read(payload, MissingNode.getInstance());
    }

    public Root root() {
        return root;
    }

    public String expression() {
        return expression;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldPath other && other.expression.equals(expression);
    }

    @Override
    public int hashCode() {
        return Objects.hash(expression);
    }

    @Override
    public String toString() {
        return expression;
    }
}
