package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.port.Metrics;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The EMF that Powertools writes for the core's metrics, read back from stdout: namespace Fanin, exactly the one
 * dimension service=fanin the template's alarms match, everything else as properties.
 */
class PowertoolsMetricsTest {

    @Test
    void writesOneRecordPerPropertySetWithOnlyTheServiceDimension() {
        PowertoolsMetrics metrics = new PowertoolsMetrics();
        metrics.record("LateEvents", 1, Metrics.Unit.COUNT, Map.of("pipeline", "alerts", "disposition", "correction"));
        metrics.record("LateEvents", 1, Metrics.Unit.COUNT, Map.of("pipeline", "alerts", "disposition", "correction"));
        metrics.count("EmitFailures", "alerts");
        metrics.record("OldestOpenWindowAgeSeconds", 42, Metrics.Unit.SECONDS, Map.of("pipeline", "uploads"));

        List<JsonNode> records = EmfRecords.all(StdoutCapture.run(() -> {
            metrics.flush("req-1");
            return null;
        }).lines());

        // The age is a per-pipeline gauge: written a second time with the pipeline dimension (the next test).
        records = records.stream().filter(r -> !r.path("_aws").path("CloudWatchMetrics").get(0).path("Dimensions").toString()
                .contains("pipeline")).toList();
        assertThat(records).hasSize(3).allSatisfy(r -> {
            JsonNode directive = r.path("_aws").path("CloudWatchMetrics").get(0);
            assertThat(directive.path("Namespace").asText()).isEqualTo("Fanin");
            assertThat(directive.path("Dimensions").toString()).isEqualTo("[[\"service\"]]");
            assertThat(r.path("service").asText()).isEqualTo("fanin");
            assertThat(r.path("function_request_id").asText()).isEqualTo("req-1");
        });
        JsonNode late = records.stream().filter(r -> r.has("LateEvents")).findFirst().orElseThrow();
        assertThat(late.path("LateEvents").toString()).as("both values kept").isEqualTo("[1.0,1.0]");
        assertThat(late.path("pipeline").asText()).isEqualTo("alerts");
        assertThat(late.path("disposition").asText()).isEqualTo("correction");
        JsonNode age = records.stream().filter(r -> r.has("OldestOpenWindowAgeSeconds")).findFirst().orElseThrow();
        assertThat(age.path("_aws").path("CloudWatchMetrics").get(0).path("Metrics").get(0).path("Unit").asText()).isEqualTo("Seconds");
        assertThat(age.path("pipeline").asText()).isEqualTo("uploads");
    }

    @Test
    void theGaugesAnOperatorWatchesPerPipelineAreWrittenAgainWithThePipelineDimension() {
        PowertoolsMetrics metrics = new PowertoolsMetrics();
        metrics.record("SecondsPastHardDeadline", 12, Metrics.Unit.SECONDS, Map.of("pipeline", "uploads"));
        metrics.record("WindowsOpened", 1, Metrics.Unit.COUNT, Map.of("pipeline", "uploads"));
        metrics.record("OpenWindows", 3, Metrics.Unit.COUNT, Map.of("pipeline", "alerts"));
        metrics.record("WindowsSwept", 4, Metrics.Unit.COUNT, Map.of("pipeline", "all"));

        List<JsonNode> records = EmfRecords.all(StdoutCapture.run(() -> {
            metrics.flush(null);
            return null;
        }).lines());

        List<JsonNode> perPipeline = records.stream()
                .filter(r -> r.path("_aws").path("CloudWatchMetrics").get(0).path("Dimensions").toString()
                        .equals("[[\"service\",\"pipeline\"]]"))
                .toList();
        assertThat(perPipeline).extracting(r -> r.path("pipeline").asText()).containsExactlyInAnyOrder("uploads", "alerts");
        JsonNode uploads = perPipeline.stream().filter(r -> r.path("pipeline").asText().equals("uploads")).findFirst().orElseThrow();
        assertThat(uploads.has("SecondsPastHardDeadline")).isTrue();
        assertThat(uploads.has("WindowsOpened")).as("not a per-pipeline gauge").isFalse();
        assertThat(records).as("every metric once with the service dimension alone, for the alarms")
                .filteredOn(r -> r.path("_aws").path("CloudWatchMetrics").get(0).path("Dimensions").toString().equals("[[\"service\"]]"))
                .hasSize(3);
    }

    @Test
    void aFlushForgetsWhatItWroteAndAnEmptyFlushWritesNothing() {
        PowertoolsMetrics metrics = new PowertoolsMetrics();
        metrics.count("EmitFailures", "alerts");
        StdoutCapture.run(() -> {
            metrics.flush(null);
            return null;
        });

        List<String> second = StdoutCapture.run(() -> {
            metrics.flush(null);
            return null;
        }).lines();

        assertThat(metrics.pendingValues()).isEmpty();
        assertThat(EmfRecords.all(second)).isEmpty();
    }

    @Test
    void aServicePropertyCannotOverwriteTheDimensionAndNonFiniteValuesAreDropped() {
        PowertoolsMetrics metrics = new PowertoolsMetrics();
        metrics.record("WriteUnitsPerEvent", Double.NaN, Metrics.Unit.NONE, Map.of());
        metrics.record("WindowsOpened", 1, Metrics.Unit.COUNT, Map.of("service", "other", "pipeline", "p"));

        List<JsonNode> records = EmfRecords.all(StdoutCapture.run(() -> {
            metrics.flush(null);
            return null;
        }).lines());

        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.path("service").asText()).isEqualTo("fanin");
            assertThat(r.has("WriteUnitsPerEvent")).isFalse();
            assertThat(r.has("function_request_id")).isFalse();
        });
    }
}
