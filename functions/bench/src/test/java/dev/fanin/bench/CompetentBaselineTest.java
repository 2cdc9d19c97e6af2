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

    /** The flush is a conditional update that returns the item it flushed (ALL_NEW): no read, no read units. */
    @Test
    void eachWindowIsFlushedOnceByOneConditionalUpdateThatReturnsTheItem() {
        baseline.acceptBatch(List.of(event("a", T0), event("b", T0.plusSeconds(60))));

        DynamoDbBill bill = baseline.flushAll();
        baseline.flushAll();

        assertThat(baseline.windows()).isEqualTo(2);
        assertThat(bill.callsByOperation()).containsExactlyInAnyOrderEntriesOf(Map.of("UpdateItem", 4L));
        assertThat(bill.readUnits()).isZero();
    }

    @Test
    void theWindowsEventsGoTenToAPutEventsCall() {
        List<Event> minutes = new ArrayList<>();
        for (int m = 0; m < 25; m++) {
            minutes.add(event("m-" + m, T0.plusSeconds(60L * m)));
        }
        baseline.acceptBatch(minutes);

        assertThat(baseline.windows()).isEqualTo(25);
        assertThat(baseline.putEventsCalls()).isEqualTo(3);
    }

    /** A duplicate sent again minutes later, after its key started a new session, counts in the session of its time. */
    @Test
    void aLateDuplicateJoinsTheSessionContainingItsTimeAndIsRefusedThere() {
        baseline.acceptBatch(List.of(alert("a-1", T0), alert("a-2", T0.plusSeconds(2))));
        baseline.acceptBatch(List.of(alert("a-3", T0.plusSeconds(300))));
        baseline.acceptBatch(List.of(alert("a-2", T0.plusSeconds(2))));

        assertThat(baseline.windows()).as("the sessions of 0 s and 300 s, no stale one").isEqualTo(2);
        assertThat(baseline.bill().calls("UpdateItem")).as("two adds, then the duplicate refused").isEqualTo(3);
    }

    /** No invocation knows another's sessions: a session's events first read the key's session their time falls in. */
    @Test
    void aSessionBatchReadsTheSessionOfItsEventsTimeOneQueryPerBatchAndSession() {
        baseline.acceptBatch(List.of(alert("a-1", T0), alert("a-2", T0.plusSeconds(2))));
        baseline.acceptBatch(List.of(alert("a-3", T0.plusSeconds(4)), alert("a-4", T0.plusSeconds(300))));

        // The first batch finds no session; the second reads the one of 0 s twice: to join it, and before starting 300 s.
        assertThat(baseline.bill().calls("Query")).isEqualTo(3);
        assertThat(baseline.bill().readUnits()).isEqualTo(3);
    }

    @Test
    void theLookupIsBilledByTheWholeSessionItemItReturns() {
        List<Event> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add(alert("a-" + i, T0.plusMillis(i)));
        }
        baseline.acceptBatch(many);
        double before = baseline.bill().readUnits();
        baseline.acceptBatch(List.of(alert("late", T0.plusSeconds(1))));

        // 300 digests of 16 bytes: a 4.9 KB item, two read units strongly consistent.
        assertThat(baseline.bill().readUnits() - before).isEqualTo(2);
    }

    /** A key's day of sessions with redelivered alerts: as many windows as sessions, each distinct alert counted once. */
    @Test
    void onTheHistoryProfileTheDesignCountsEverySessionAndEveryDistinctEventOnce() {
        Workload day = Workloads.history(1, 1, 42);
        FaninConfig alertStorm = new FaninConfig(CONFIG.version(), List.of(CONFIG.pipeline("alert-storm").orElseThrow()));
        List<List<Event>> batches = BenchMain.parseBatches(alertStorm, day, Simulation.BatchShape.DEFAULT);
        CompetentBaseline design = new CompetentBaseline(BenchMain.pipelines(alertStorm));
        batches.forEach(design::acceptBatch);
        long distinct = batches.stream().flatMap(List::stream).map(Event::eventId).distinct().count();

        assertThat(design.windows()).as("a 3-alert session every 2 minutes").isEqualTo(720);
        assertThat(distinct).isEqualTo(3 * 720);
        assertThat(design.digestsCounted()).isEqualTo(distinct);
    }

    static Event event(String id, Instant time) {
        var payload = JsonNodeFactory.instance.objectNode();
        return new Event("late-rollup", "sensor-01", id, time, false, time, payload, payload, "m-" + id);
    }

    /** An alert of the {@code alert-storm} pipeline (sessions of 30 s gap) on one key. */
    static Event alert(String id, Instant time) {
        var payload = JsonNodeFactory.instance.objectNode();
        return new Event("alert-storm", "acct|eu-west-1|svc", id, time, false, time, payload, payload, "m-" + id);
    }
}
