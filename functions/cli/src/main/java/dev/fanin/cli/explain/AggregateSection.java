package dev.fanin.cli.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.AggregationSpec;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.config.PipelineConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** 7. What the emitted aggregate carries: the schema's fields (read from the schema itself) and this pipeline's aggregations. */
final class AggregateSection {

    static final String SCHEMA = "schemas/aggregate-v1.json";

    private AggregateSection() {
    }

    static String render(PipelineConfig p) {
        StringBuilder md = new StringBuilder("### 7. The aggregate\n\n");
        md.append("Each aggregate event follows `").append(SCHEMA).append("` and carries ");
        List<String> fields = new ArrayList<>();
        schemaFields().forEach(field -> fields.add("`" + field + "`"));
        md.append(String.join(", ", fields)).append(".\n\n");
        if (p.aggregations().isEmpty()) {
            md.append("`aggregations` is empty: the event reports completeness only.\n");
            return md.toString();
        }
        md.append("| `aggregations.` field | type | value |\n|---|---|---|\n");
        for (AggregationSpec spec : p.aggregations()) {
            md.append("| `").append(spec.name()).append("` | ").append(type(spec)).append(" | ").append(value(spec)).append(" |\n");
        }
        md.append("\nEvery aggregation is folded once per distinct event id, so a duplicate never changes a result.\n");
        return md.toString();
    }

    private static String type(AggregationSpec spec) {
        if (spec instanceof AggregationSpec.Count) {
            return "`count`";
        }
        if (spec instanceof AggregationSpec.DistinctIds) {
            return "`distinct-ids`";
        }
        if (spec instanceof AggregationSpec.Sum) {
            return "`sum`";
        }
        if (spec instanceof AggregationSpec.Min) {
            return "`min`";
        }
        if (spec instanceof AggregationSpec.Max) {
            return "`max`";
        }
        if (spec instanceof AggregationSpec.FirstN) {
            return "`first`";
        }
        if (spec instanceof AggregationSpec.LastN) {
            return "`last`";
        }
        return "`distinct-values`";
    }

    private static String value(AggregationSpec spec) {
        if (spec instanceof AggregationSpec.Count) {
            return "the number of distinct events";
        }
        if (spec instanceof AggregationSpec.DistinctIds ids) {
            return "`{count, ids}`: the exact number of distinct event ids and the " + ids.cap() + " smallest (of up to "
                    + ids.maxValueBytes() + " bytes)";
        }
        if (spec instanceof AggregationSpec.Sum sum) {
            return "`{value, skipped}`: the exact sum of " + Describe.path(sum.path()) + "; non-numbers are skipped and counted";
        }
        if (spec instanceof AggregationSpec.Min min) {
            return "`{value, skipped}`: the least " + Describe.path(min.path()) + "; null when no number was seen";
        }
        if (spec instanceof AggregationSpec.Max max) {
            return "`{value, skipped}`: the greatest " + Describe.path(max.path()) + "; null when no number was seen";
        }
        if (spec instanceof AggregationSpec.FirstN first) {
            return "`[{eventId, eventTime, value}]`: the first " + first.n() + " by event time (ties by event id), value "
                    + sampled(first.path()) + trimmed(first.maxValueBytes());
        }
        if (spec instanceof AggregationSpec.LastN last) {
            return "`[{eventId, eventTime, value}]`: the last " + last.n() + " by event time (ties by event id), value "
                    + sampled(last.path()) + trimmed(last.maxValueBytes());
        }
        AggregationSpec.DistinctValues values = (AggregationSpec.DistinctValues) spec;
        return "`{values, truncated}`: the values of " + Describe.path(values.path()) + ", the " + values.cap()
                + " smallest of up to " + values.maxValueBytes() + " bytes, `truncated` when there were more or longer ones";
    }

    private static String trimmed(int maxValueBytes) {
        return "; a value over " + maxValueBytes + " bytes is null, with `trimmed: true`";
    }

    private static String sampled(FieldPath path) {
        return path == null ? "the whole payload" : Describe.path(path);
    }

    /** The top-level property names of the aggregate schema, in schema order. */
    static List<String> schemaFields() {
        try (InputStream in = AggregateSection.class.getClassLoader().getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException(SCHEMA + " is not on the classpath");
            }
            JsonNode schema = new ObjectMapper().readTree(in);
            List<String> names = new ArrayList<>();
            schema.path("properties").fieldNames().forEachRemaining(names::add);
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
