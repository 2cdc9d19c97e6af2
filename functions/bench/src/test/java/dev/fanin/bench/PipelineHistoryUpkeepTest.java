package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.FaninConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pipeline history's upkeep, as every function container pays it: counts only. */
class PipelineHistoryUpkeepTest {

    private static final FaninConfig CONFIG = BenchPipelines.load();
    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");

    /** Three containers invoked every 20 s for a day: each reads once a minute, the ran items go once a minute. */
    @Test
    void aDayOfThreeBusyContainersReadsEachMinuteAndSaysItRunsEachMinute() {
        PipelineHistoryUpkeep upkeep = new PipelineHistoryUpkeep(CONFIG, BenchPipelines.document(CONFIG), T0);
        for (Instant at = T0; at.isBefore(T0.plus(Duration.ofDays(1))); at = at.plusSeconds(20)) {
            upkeep.invoked(0, DynamoDbBill.INGEST, at);
            upkeep.invoked(1, DynamoDbBill.TIMER, at);
            upkeep.invoked(2, DynamoDbBill.SWEEPER, at);
        }
        int pipelines = CONFIG.pipelines().size();
        DynamoDbBill bill = upkeep.bill();

        assertThat(bill.callsByOperation()).isEqualTo(Map.of("Query", 2L * 3 * 1_440, "PutItem", (long) pipelines * 1_440 + pipelines));
        assertThat(bill.writeUnits(Purpose.HISTORY_RAN)).isEqualTo(pipelines * 1_440);
        // Every definition holds the whole document (about 5.2 KB here): six units each, recorded again once, at 12 h.
        assertThat(bill.writeUnits(Purpose.HISTORY_RECORD)).isEqualTo(pipelines * 6);
        assertThat(bill.readUnits()).isEqualTo(3 * 1_440 * (1 + Math.ceil(pipelines * 5_280 / 4_096.0)));
    }

    @Test
    void aContainerThatIsNotInvokedReadsNothing() {
        PipelineHistoryUpkeep upkeep = new PipelineHistoryUpkeep(CONFIG, BenchPipelines.document(CONFIG), T0);
        upkeep.invoked(0, DynamoDbBill.INGEST, T0);
        upkeep.invoked(0, DynamoDbBill.INGEST, T0.plusSeconds(59));
        upkeep.invoked(0, DynamoDbBill.INGEST, T0.plus(Duration.ofHours(1)));

        assertThat(upkeep.bill().calls("Query")).isEqualTo(4);
    }

    @Test
    void aDeploymentOfOnePipelineStoresThatPipelinesLinesAlone() {
        FaninConfig alertStorm = new FaninConfig(CONFIG.version(), java.util.List.of(CONFIG.pipeline("alert-storm").orElseThrow()));

        String document = BenchPipelines.document(alertStorm);

        assertThat(dev.fanin.core.config.ConfigLoader.load(document, "test").pipelines()).extracting(p -> p.name()).containsExactly("alert-storm");
        assertThat(BenchPipelines.document(CONFIG)).contains("- name: late-rollup").hasSizeGreaterThan(4_683);
    }
}
