package dev.fanin.core.config;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A predicate over one JSON field, used by match rules and sentinels.
 *
 * <p>Exactly one test is set: {@code equals} (string form of a scalar), {@code oneOf}, {@code matches} (a regex
 * that must match the whole string value) or {@code exists}.
 */
public record Condition(FieldPath path, String equalTo, List<String> oneOf, Pattern matches, Boolean exists) {

    public Condition {
        oneOf = oneOf == null ? null : List.copyOf(oneOf);
    }
}
