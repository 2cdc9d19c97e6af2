package dev.fanin.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.util.List;

/**
 * The shipped aggregate schema ({@code schemas/aggregate-v1.json}, from the core jar on the classpath): the one check
 * every test fixture that sees an emission applies to it, so that no aggregate any test makes escapes the contract.
 */
public final class AggregateSchema {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(SchemaLocation.of("classpath:schemas/aggregate-v1.json"));

    private AggregateSchema() { }

    /** What is wrong with {@code aggregate} by the schema; empty when it is valid. */
    public static List<String> problems(JsonNode aggregate) {
        return SCHEMA.validate(aggregate).stream().map(Object::toString).toList();
    }

    /** @throws AssertionError naming every schema error of {@code aggregate} */
    public static void assertValid(JsonNode aggregate) {
        List<String> problems = problems(aggregate);
        if (!problems.isEmpty()) {
            throw new AssertionError("the aggregate breaks schemas/aggregate-v1.json: " + problems + "\n" + aggregate);
        }
    }

    /** As {@link #assertValid(JsonNode)}, for the aggregate's JSON text (as an emitter receives it). */
    public static void assertValid(String aggregateJson) {
        JsonNode aggregate;
        try {
            aggregate = JSON.readTree(aggregateJson);
        } catch (IOException e) {
            throw new AssertionError("the aggregate is not JSON: " + aggregateJson, e);
        }
        assertValid(aggregate);
    }
}
