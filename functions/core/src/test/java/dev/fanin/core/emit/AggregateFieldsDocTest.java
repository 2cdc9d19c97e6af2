package dev.fanin.core.emit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/SEMANTICS.md defines every field of the aggregate in one table, and the schema describes every field. */
class AggregateFieldsDocTest {

    private static final Path DOC = Path.of("..", "..", "docs", "SEMANTICS.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-zA-Z.]+)` \\|", Pattern.MULTILINE);

    private static JsonNode schema() throws IOException {
        try (InputStream in = AggregateFieldsDocTest.class.getResourceAsStream("/schemas/aggregate-v1.json")) {
            return new ObjectMapper().readTree(in);
        }
    }

    /** The schema's fields: top level, and {@code window.*}. */
    private static List<String> schemaFields(JsonNode schema) {
        List<String> fields = new ArrayList<>();
        schema.path("properties").fieldNames().forEachRemaining(fields::add);
        schema.path("properties").path("window").path("properties").fieldNames().forEachRemaining(f -> fields.add("window." + f));
        fields.remove("window");
        return fields;
    }

    @Test
    void theDocsTableListsExactlyTheSchemasFields() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int start = doc.indexOf("### The aggregate, field by field");
        assertThat(start).as("the section in docs/SEMANTICS.md").isPositive();
        String section = doc.substring(start, doc.indexOf("\n## ", start));
        TreeSet<String> documented = new TreeSet<>();
        Matcher row = ROW.matcher(section);
        while (row.find()) {
            documented.add(row.group(1));
        }
        assertThat(documented).isEqualTo(new TreeSet<>(schemaFields(schema())));
    }

    @Test
    void theSchemaDescribesEveryField() throws IOException {
        JsonNode schema = schema();
        List<String> undescribed = new ArrayList<>();
        for (String field : schemaFields(schema)) {
            JsonNode node = field.startsWith("window.")
                    ? schema.path("properties").path("window").path("properties").path(field.substring(7))
                    : schema.path("properties").path(field);
            if (!node.path("description").isTextual()) {
                undescribed.add(field);
            }
        }
        schema.path("$defs").fields().forEachRemaining(d -> d.getValue().path("properties").fields().forEachRemaining(p -> {
            if (!p.getValue().path("description").isTextual()) {
                undescribed.add(d.getKey() + "." + p.getKey());
            }
        }));
        assertThat(undescribed).isEmpty();
    }
}
