package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.event.Event;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NaiveBaselineTest {

    private static final FaninConfig CONFIG = BenchPipelines.load();
    private static final Instant T0 = Instant.parse("2026-11-29T00:00:10Z");

    @Test
    void eachNewEventIsADedupePutAndAWindowUpdateAndADuplicateOnlyThePut() {
        NaiveBaseline baseline = new NaiveBaseline(BenchMain.pipelines(CONFIG));
        baseline.accept(event("r-1", T0));
        baseline.accept(event("r-2", T0.plusSeconds(1)));
        baseline.accept(event("r-1", T0));

        DynamoDbBill bill = baseline.flushAll();

        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(Map.of("PutItem", 3L, "UpdateItem", 3L, "GetItem", 1L));
        assertThat(bill.tableWriteUnits()).isEqualTo(3 + 2 + 1); // small items: one unit per write
        assertThat(bill.readUnits()).isEqualTo(1);
        assertThat(baseline.windows()).isEqualTo(1);
    }

    @Test
    void theWindowItemGrowsSoItsUpdatesCostMoreAsTheWindowFills() {
        NaiveBaseline baseline = new NaiveBaseline(BenchMain.pipelines(CONFIG));
        String longId = "x".repeat(200);
        double previous = 0;
        double lastUpdate = 0;
        for (int i = 0; i < 12; i++) {
            baseline.accept(event(longId + i, T0));
            lastUpdate = baseline.bill().tableWriteUnits() - previous - 1; // minus the dedupe put
            previous = baseline.bill().tableWriteUnits();
        }
        // 12 ids of 201-202 bytes: about 2.4 KB of ids, so the twelfth update writes a 3 KB item.
        assertThat(lastUpdate).isEqualTo(3);
    }

    @Test
    void tumblingWindowsSplitTheStreamByEventTime() {
        NaiveBaseline baseline = new NaiveBaseline(BenchMain.pipelines(CONFIG));
        baseline.accept(event("a", T0));
        baseline.accept(event("b", T0.plusSeconds(60)));

        assertThat(baseline.windows()).isEqualTo(2);
    }

    private static Event event(String id, Instant time) {
        var payload = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        return new Event("late-rollup", "sensor-01", id, time, false, time, payload, payload, "m-" + id);
    }
}
