package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.event.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The competent do-it-yourself design's bill: one conditional update per batch and window, retried past duplicates. */
class CompetentBaselineTest {

    private static final FaninConfig CONFIG = BenchPipelines.load();
    private static final Instant T0 = Instant.parse("2026-11-29T00:00:10Z");

    private final CompetentBaseline baseline = new CompetentBaseline(BenchMain.pipelines(CONFIG));

    @Test
    void aBatchOfNewEventsIsOneUpdatePerWindowAndADuplicateInTheBatchCostsNothing() {
        baseline.acceptBatch(List.of(event("r-1", T0), event("r-2", T0.plusSeconds(1)), event("r-1", T0)));

        assertThat(baseline.bill().callsByOperation()).containsExactlyEntriesOf(Map.of("UpdateItem", 1L));
        assertThat(baseline.bill().tableWriteUnits()).isEqualTo(1);
        assertThat(baseline.windows()).isEqualTo(1);
    }

    @Test
    void aRedeliveredEventFailsTheConditionOnceAndTheRestIsWrittenOnTheRetry() {
        baseline.acceptBatch(List.of(event("r-1", T0)));
        baseline.acceptBatch(List.of(event("r-1", T0), event("r-2", T0.plusSeconds(1))));

        // First batch: 1 update; second: the refused update (charged) and the retry with r-2 alone.
        assertThat(baseline.bill().calls("UpdateItem")).isEqualTo(3);
        assertThat(baseline.bill().tableWriteUnits()).isEqualTo(3);
    }

    @Test
    void aBatchOfOnlyRedeliveriesIsOneRefusedUpdateAndNoRetry() {
        baseline.acceptBatch(List.of(event("r-1", T0), event("r-2", T0)));
        baseline.acceptBatch(List.of(event("r-2", T0), event("r-1", T0)));

        assertThat(baseline.bill().calls("UpdateItem")).isEqualTo(2);
    }

    @Test
    void theItemGrowsBySixteenBytesPerEventSoLargeWindowsCostMorePerUpdate() {
        for (int batch = 0; batch < 100; batch++) {
            List<Event> events = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                events.add(event("e-" + batch + "-" + i, T0));
            }
            baseline.acceptBatch(events);
        }
        double before = baseline.bill().tableWriteUnits();
        baseline.acceptBatch(List.of(event("last", T0)));

        // 1,001 digests of 16 bytes and about 60 bytes of keys: 15.8 KB, so one more update is 16 units (1 at first).
        assertThat(baseline.bill().tableWriteUnits() - before).isEqualTo(16);
    }

    @Test
    void eachWindowIsFlushedOnceByAReadAndAnUpdate() {
        baseline.acceptBatch(List.of(event("a", T0), event("b", T0.plusSeconds(60))));

        DynamoDbBill bill = baseline.flushAll();
        baseline.flushAll();

        assertThat(baseline.windows()).isEqualTo(2);
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(Map.of("UpdateItem", 4L, "GetItem", 2L));
        assertThat(bill.readUnits()).isEqualTo(2);
    }

    static Event event(String id, Instant time) {
        var payload = JsonNodeFactory.instance.objectNode();
        return new Event("late-rollup", "sensor-01", id, time, false, time, payload, payload, "m-" + id);
    }
}
