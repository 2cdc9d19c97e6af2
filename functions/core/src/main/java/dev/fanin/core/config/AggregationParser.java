package dev.fanin.core.config;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads {@code aggregations}: a list of named outputs, each with the fields its type takes. */
final class AggregationParser {

    enum Type { COUNT, DISTINCT_IDS, SUM, MIN, MAX, FIRST, LAST, DISTINCT_VALUES }

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
    private static final List<String> ALL_FIELDS = List.of("name", "type", "path", "n", "cap", "maxValueBytes");

    private AggregationParser() {
    }

    /** The aggregations, or null after reporting their problems. */
    static List<AggregationSpec> parse(Section pipeline) {
        if (!pipeline.has("aggregations")) {
            return ConfigDefaults.AGGREGATIONS;
        }
        ArrayNode list = pipeline.list("aggregations", "[{name: files, type: count}]");
        if (list == null) {
            return null;
        }
        int before = pipeline.spot().problems().count();
        List<AggregationSpec> specs = new ArrayList<>();
        Map<String, Integer> firstIndexByName = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            Spot spot = pipeline.at("aggregations").index(i);
            Section section = Section.of(spot, list.get(i));
            if (section == null) {
                continue;
            }
            String name = name(section);
            if (name != null) {
                Integer first = firstIndexByName.putIfAbsent(name, i);
                if (first != null) {
                    section.at("name").problem("\"" + name + "\" is also the name of aggregations[" + first
                            + "]; aggregation names must be unique");
                }
            }
            AggregationSpec spec = aggregation(section, name);
            if (spec != null) {
                specs.add(spec);
            }
        }
        return pipeline.spot().problems().count() == before ? specs : null;
    }

    private static String name(Section section) {
        if (!section.require("name", "name the output field, e.g. \"files\"")) {
            return null;
        }
        String name = section.text("name", null);
        if (name != null && !NAME.matcher(name).matches()) {
            section.at("name").problem("\"" + name + "\" is not a valid name; use up to 64 letters, digits and '_', starting with a letter, e.g. \"fileCount\"");
            return null;
        }
        return name;
    }

    private static AggregationSpec aggregation(Section section, String name) {
        if (!section.require("type", "use one of " + typeNames())) {
            section.allowOnly(ALL_FIELDS);
            return null;
        }
        Type type = section.choice("type", Type.class, null);
        if (type == null) {
            section.allowOnly(ALL_FIELDS);
            return null;
        }
        checkFields(section, type);
        String typeName = Values.yamlName(type);
        return switch (type) {
            case COUNT -> name == null ? null : new AggregationSpec.Count(name);
            case DISTINCT_IDS -> {
                Integer cap = cap(section);
                Integer maxValueBytes = valueBytes(section, ConfigDefaults.LISTED_VALUE_BYTES);
                yield name == null || cap == null || maxValueBytes == null ? null : new AggregationSpec.DistinctIds(name, cap, maxValueBytes);
            }
            case SUM -> {
                FieldPath path = requiredPath(section, "a sum needs the number field to add up, e.g. \"$.bytes\"");
                yield name == null || path == null ? null : new AggregationSpec.Sum(name, path);
            }
            case MIN, MAX -> {
                FieldPath path = requiredPath(section, "a " + typeName + " needs the number field to compare, e.g. \"$.durationMs\"");
                if (name == null || path == null) {
                    yield null;
                }
                yield type == Type.MIN ? new AggregationSpec.Min(name, path) : new AggregationSpec.Max(name, path);
            }
            case FIRST, LAST -> {
                Integer n = section.integer("n", ConfigDefaults.SAMPLES, 1, ConfigDefaults.MAX_SAMPLES);
                FieldPath path = section.path("path", null);
                boolean pathBroken = section.has("path") && path == null;
                Integer maxValueBytes = valueBytes(section, ConfigDefaults.SAMPLE_VALUE_BYTES);
                if (name == null || n == null || pathBroken || maxValueBytes == null) {
                    yield null;
                }
                yield type == Type.FIRST ? new AggregationSpec.FirstN(name, n, path, maxValueBytes)
                        : new AggregationSpec.LastN(name, n, path, maxValueBytes);
            }
            case DISTINCT_VALUES -> {
                FieldPath path = requiredPath(section, "distinct-values needs the field whose values it collects, e.g. \"$.resource\"");
                Integer cap = cap(section);
                Integer maxValueBytes = valueBytes(section, ConfigDefaults.LISTED_VALUE_BYTES);
                yield name == null || path == null || cap == null || maxValueBytes == null ? null
                        : new AggregationSpec.DistinctValues(name, path, cap, maxValueBytes);
            }
        };
    }

    private static Integer cap(Section section) {
        return section.integer("cap", ConfigDefaults.CAP, 1, ConfigDefaults.MAX_CAP);
    }

    private static Integer valueBytes(Section section, int absent) {
        return section.integer("maxValueBytes", absent, ConfigDefaults.MIN_AGGREGATION_BYTES, ConfigDefaults.MAX_AGGREGATION_BYTES);
    }

    private static FieldPath requiredPath(Section section, String hint) {
        return section.require("path", hint) ? section.path("path", null) : null;
    }

    private static List<String> fieldsOf(Type type) {
        return switch (type) {
            case COUNT -> List.of("name", "type");
            case DISTINCT_IDS -> List.of("name", "type", "cap", "maxValueBytes");
            case SUM, MIN, MAX -> List.of("name", "type", "path");
            case FIRST, LAST -> List.of("name", "type", "path", "n", "maxValueBytes");
            case DISTINCT_VALUES -> List.of("name", "type", "path", "cap", "maxValueBytes");
        };
    }

    private static void checkFields(Section section, Type type) {
        List<String> fields = fieldsOf(type);
        Set<String> all = new LinkedHashSet<>(ALL_FIELDS);
        for (String field : section.names()) {
            if (fields.contains(field)) {
                continue;
            }
            String message = all.contains(field)
                    ? "does not apply to a " + Values.yamlName(type) + " aggregation, which takes: " + String.join(", ", fields)
                    : Section.unknownField(field, fields);
            section.at(field).problem(message);
        }
    }

    private static String typeNames() {
        List<String> names = new ArrayList<>();
        for (Type type : Type.values()) {
            names.add(Values.yamlName(type));
        }
        return String.join(", ", names);
    }
}
