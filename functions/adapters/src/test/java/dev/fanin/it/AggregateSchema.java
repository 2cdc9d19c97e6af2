package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/** The shipped aggregate schema ({@code schemas/aggregate-v1.json} from the core jar), for validating what was emitted. */
final class AggregateSchema {

    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(SchemaLocation.of("classpath:schemas/aggregate-v1.json"));

    private AggregateSchema() { }

    static void assertValid(JsonNode aggregate) {
        assertThat(SCHEMA.validate(aggregate)).as("schema errors of " + aggregate).isEmpty();
    }
}
