package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.FaninConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 1, as counts: what a session key's batch reads does not grow with how long the key has lived. Two
 * keys, a short session every 2 minutes and some producer duplicates landing in committed sessions, for a day: the
 * read units and DynamoDB calls per event of the last 6 hours stay within 1.2x of the first 6 hours (on the key-wide
 * loads they replace, a day of history read about 4x as much as the first 6 hours).
 */
class HistoryProfileTest {

    private static final FaninConfig BUNDLED = BenchPipelines.load();

    @Test
    void readsPerEventOfADayOldKeyStayWithinOnePointTwoOfItsFirstSixHours() {
        FaninConfig config = new FaninConfig(BUNDLED.version(), List.of(BUNDLED.pipeline("alert-storm").orElseThrow()));
        Simulation.Intervals intervals = new Simulation.Intervals(HistoryProfile.INTERVAL);

        Simulation.Result run = Simulation.run(config, Workloads.history(2, 1.0, 3), Simulation.Mode.TIMERS, Simulation.BatchShape.DEFAULT,
                intervals);

        assertThat(run.failedMessages()).isZero();
        assertThat(run.duplicates()).as("the producers' duplicates were recognised").isPositive();
        List<Simulation.Snapshot> s = intervals.snapshots;
        assertThat(s).hasSizeGreaterThanOrEqualTo(4);
        DynamoDbBill first = s.get(0).bill();
        DynamoDbBill last = s.get(3).bill().since(s.get(2).bill());
        long firstEvents = s.get(0).events();
        long lastEvents = s.get(3).events() - s.get(2).events();
        double firstReads = first.readUnits() / firstEvents;
        double lastReads = last.readUnits() / lastEvents;
        assertThat(lastReads).as("read units per event, hours 18-24 against 0-6 (%.3f, %.3f)", lastReads, firstReads)
                .isLessThanOrEqualTo(1.2 * firstReads);
        assertThat((double) last.calls() / lastEvents).isLessThanOrEqualTo(1.2 * first.calls() / firstEvents);
        assertThat((double) last.bytesRead() / lastEvents).isLessThanOrEqualTo(1.2 * first.bytesRead() / firstEvents);
    }
}
