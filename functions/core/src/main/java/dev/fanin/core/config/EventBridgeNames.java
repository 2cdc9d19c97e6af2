package dev.fanin.core.config;

import java.util.Optional;

/**
 * What EventBridge's {@code PutEvents} refuses for good in an entry's {@code Source} and {@code DetailType}: a source
 * over 256 characters or starting with {@code aws.} (kept for AWS's own events), a detail type over 128. A pipeline
 * emitting with such a name would fail every emission at every lease end and never commit, so the configuration is
 * refused instead: a literal value when it loads, a {@code ${...}} one when the functions resolve it at start-up.
 */
public final class EventBridgeNames {

    static final int MAX_SOURCE_CHARS = 256;
    static final int MAX_DETAIL_TYPE_CHARS = 128;

    private EventBridgeNames() {
    }

    /** What is wrong with {@code source}, as a phrase following its field's name; empty when EventBridge takes it. */
    public static Optional<String> sourceProblem(String source) {
        if (source.startsWith("aws.")) {
            return Optional.of("\"" + source + "\" starts with \"aws.\", which EventBridge reserves for AWS's own events and "
                    + "refuses in PutEvents; use your own prefix, e.g. \"myteam.fanin\"");
        }
        return tooLong(source, MAX_SOURCE_CHARS);
    }

    /** What is wrong with {@code detailType}, as a phrase following its field's name; empty when EventBridge takes it. */
    public static Optional<String> detailTypeProblem(String detailType) {
        return tooLong(detailType, MAX_DETAIL_TYPE_CHARS);
    }

    private static Optional<String> tooLong(String value, int max) {
        return value.length() > max
                ? Optional.of("is " + value.length() + " characters long; EventBridge takes at most " + max)
                : Optional.empty();
    }
}
