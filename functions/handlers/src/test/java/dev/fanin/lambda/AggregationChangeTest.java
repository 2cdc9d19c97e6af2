package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The aggregations of the bundled shard-completions changed while a run's window holds shards, through the real
 * functions on the local endpoint: {@code slowestMs} removed, {@code fastestMs} added, {@code shards} changed in type
 * (count to distinct-ids) and {@code rows} in what it reads (its sum path). The state written under the old
 * definition decodes under the new one, the window closes once, and its aggregate is schema-valid and holds what
 * docs/CONFIGURATION.md ("Changing the configuration with open windows") says: a kept aggregation its whole value, an
 * added or redefined one only the events from the change on, a removed one nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AggregationChangeTest {

    private static final String RUN = "nightly-etl|2026-11-29";
    private static final String AGGREGATIONS = """
                  - {name: shards, type: count}
                  - {name: rows, type: sum, path: $.rows}
                  - {name: slowestMs, type: max, path: $.durationMs}
            """;
    private static final String CHANGED = """
                  - {name: shards, type: distinct-ids}
                  - {name: rows, type: sum, path: $.durationMs}
                  - {name: fastestMs, type: min, path: $.durationMs}
            """;

    private PublishedConfig published;

    @BeforeAll
    void bucket() {
        published = PublishedConfig.bucket("aggregations");
    }

    /** Shards 0 and 1 before the change, 2 (twice) and 3 after it: the run completes under the new aggregations. */
    @Test
    void anOpenWindowClosesWithTheNewAggregationsOverWhatEachCouldSee() {
        SQSEvent shards = SampleEvents.sqs("sqs-raw-shards.json");
        LocalFanin fanin = published.start("open", "open.yaml", PublishedConfig.BUNDLED, SampleEvents.lastSent(shards).plusSeconds(1));
        assertThat(fanin.ingest(SampleEvents.records(shards, 0, 1))).isEmpty();

        publishChanged(fanin, "open.yaml", PublishedConfig.BUNDLED);
        assertThat(fanin.ingest(SampleEvents.records(shards, 2, 3, 4))).isEmpty();

        JsonNode aggregate = onlyAggregate(fanin);
        assertThat(aggregate.path("closeReason").asText()).isEqualTo("EXPECTED_COMPLETE");
        assertThat(aggregate.path("seen").asInt()).as("completeness is not an aggregation: all four shards").isEqualTo(4);
        assertThat(aggregate.path("aggregations").toString()).isEqualTo("{\"shards\":{\"count\":2,\"ids\":[\"2\",\"3\"]},"
                + "\"rows\":{\"value\":" + (5120 + 6011) + ",\"skipped\":0},\"fastestMs\":{\"value\":5120,\"skipped\":0}}");
    }

    /**
     * The run fires partial at its deadline under the old aggregations; then they change, with a lateness that lets
     * shard 3 correct the rollup. The correction holds the new aggregations over shard 3 alone.
     */
    @Test
    void aCorrectionAfterTheChangeHoldsTheNewAggregationsOverTheEventsSinceTheChange() {
        SQSEvent shards = SampleEvents.sqs("sqs-raw-shards.json");
        String lateness = PublishedConfig.BUNDLED.replace("      maxLifetime: 30m\n", "      maxLifetime: 30m\n    allowedLateness: 1h\n");
        LocalFanin fanin = published.start("fired", "fired.yaml", lateness, SampleEvents.lastSent(shards).plusSeconds(1));
        assertThat(fanin.ingest(SampleEvents.records(shards, 0, 1))).isEmpty();
        fanin.clock.set(fanin.windows("shard-completions", RUN).get(0).hardDeadline());
        fanin.sweep();
        JsonNode partial = onlyAggregate(fanin);
        assertThat(partial.path("aggregations").toString()).isEqualTo("{\"shards\":2,\"rows\":{\"value\":2414,\"skipped\":0},"
                + "\"slowestMs\":{\"value\":5904,\"skipped\":0}}");

        publishChanged(fanin, "fired.yaml", lateness);
        assertThat(fanin.ingest(SampleEvents.records(shards, 4))).isEmpty();
        fanin.clock.advance(Duration.ofMinutes(1));
        fanin.sweep();

        JsonNode correction = onlyAggregate(fanin);
        assertThat(correction.path("corrects").asText()).isEqualTo(partial.path("aggregateId").asText());
        assertThat(correction.path("missing").toString()).isEqualTo("[2]");
        assertThat(correction.path("aggregations").toString()).isEqualTo("{\"shards\":{\"count\":1,\"ids\":[\"3\"]},"
                + "\"rows\":{\"value\":6011,\"skipped\":0},\"fastestMs\":{\"value\":6011,\"skipped\":0}}");
        assertThat(fanin.windows("shard-completions", RUN)).singleElement().satisfies(w -> {
            assertThat(w.status()).isEqualTo(WindowStatus.CLOSED);
            assertThat(w.committedRevision()).isEqualTo(1);
        });
    }

    private void publishChanged(LocalFanin fanin, String key, String document) {
        assertThat(document).contains(AGGREGATIONS);
        published.publish(key, document.replace(AGGREGATIONS, CHANGED));
        fanin.clock.advance(LiveConfig.REFRESH);
    }

    /** The one aggregate that reaches the bus next (schema-valid, as every aggregate LocalFanin reads). */
    private static JsonNode onlyAggregate(LocalFanin fanin) {
        List<JsonNode> aggregates = fanin.aggregates(1, Duration.ofSeconds(10), Duration.ofSeconds(1));
        assertThat(aggregates).hasSize(1);
        return aggregates.get(0);
    }
}
