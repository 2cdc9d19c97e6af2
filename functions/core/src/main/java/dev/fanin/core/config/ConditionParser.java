package dev.fanin.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Reads a condition ({@code path} plus exactly one test) and a value reference ({@code path} or {@code {path, extract}}). */
final class ConditionParser {

    private static final List<String> TESTS = List.of("equals", "oneOf", "matches", "exists");
    private static final List<String> CONDITION_FIELDS = List.of("path", "equals", "oneOf", "matches", "exists");
    private static final List<String> VALUE_REF_FIELDS = List.of("path", "extract");

    private ConditionParser() {
    }

    /** The condition, or null after reporting its problems. */
    static Condition condition(Spot spot, JsonNode node) {
        Section section = Section.of(spot, node);
        if (section == null) {
            return null;
        }
        int before = spot.problems().count();
        section.allowOnly(CONDITION_FIELDS);
        FieldPath path = section.require("path", "name the field to test, e.g. \"$.source\"") ? section.path("path", null) : null;
        List<String> tests = new ArrayList<>();
        for (String test : TESTS) {
            if (section.has(test)) {
                tests.add(test);
            }
        }
        if (tests.isEmpty()) {
            spot.problem("needs one of " + String.join(", ", TESTS));
            return null;
        }
        if (tests.size() > 1) {
            spot.problem("has " + String.join(" and ", tests) + "; use exactly one of " + String.join(", ", TESTS));
            return null;
        }
        String equalTo = section.has("equals") ? Values.scalar(section.at("equals"), section.get("equals")) : null;
        List<String> oneOf = section.has("oneOf") ? oneOf(section) : null;
        Pattern matches = section.regex("matches", false);
        Boolean exists = section.bool("exists", null);
        if (spot.problems().count() != before) {
            return null;
        }
        return new Condition(path, equalTo, oneOf, matches, exists);
    }

    private static List<String> oneOf(Section section) {
        ArrayNode values = section.list("oneOf", "[\"custom.alerts\", \"aws.cloudwatch\"]");
        if (values == null) {
            return null;
        }
        if (values.isEmpty()) {
            section.at("oneOf").problem("is empty; list at least one value");
            return null;
        }
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            texts.add(Values.scalar(section.at("oneOf").index(i), values.get(i)));
        }
        return texts.contains(null) ? null : texts;
    }

    /** A value reference: a path, or a mapping of {@code path} and an {@code extract} regex with a capture group. */
    static ValueRef valueRef(Spot spot, JsonNode node) {
        if (!node.isObject()) {
            FieldPath path = Values.path(spot, node);
            return path == null ? null : ValueRef.of(path);
        }
        Section section = Section.of(spot, node);
        int before = spot.problems().count();
        section.allowOnly(VALUE_REF_FIELDS);
        FieldPath path = section.require("path", "name the field to read, e.g. \"$.s3.object.key\"") ? section.path("path", null) : null;
        Pattern extract = section.regex("extract", true);
        return spot.problems().count() == before ? new ValueRef(path, extract) : null;
    }
}
