package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.FaninConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 14 item 1, as counts: what a load reads does not grow with what its window holds. One window grows to 5,000
 * events in batches of 100: the read units per batch of the last 2,500 stay within 1.5x of the first 1,000, for a
 * tumbling window and a session (loads that read every sealed slice read about 4x as much there).
 */
class GrowProfileTest {

    @Test
    void readsPerBatchOfAWindowOfFiveThousandEventsStayWithinOnePointFiveOfItsFirstThousand() {
        for (GrowProfile.Kind kind : GrowProfile.KINDS) {
            FaninConfig config = BenchPipelines.grow(kind.pipeline());
            Simulation.Intervals steps = Simulation.Intervals.atEvents(List.of(1_000L, 2_500L, 5_000L));

            Simulation.Result run = Simulation.run(config, Workloads.oneSensor("grow", kind.type(), 5_000, 250), Simulation.Mode.TIMERS,
                    new Simulation.BatchShape(100, java.time.Duration.ofSeconds(1)), Simulation.Containers.DEFAULT, steps);

            assertThat(run.accepted()).isEqualTo(5_000);
            assertThat(run.failedMessages()).isZero();
            List<Simulation.Snapshot> s = steps.snapshots;
            double first = s.get(0).bill().readUnits() / s.get(0).batches();
            double last = s.get(2).bill().since(s.get(1).bill()).readUnits() / (s.get(2).batches() - s.get(1).batches());
            assertThat(last).as("%s: read units per batch, 2,500-5,000 events against 0-1,000 (%.2f, %.2f)", kind.pipeline(), last, first)
                    .isLessThanOrEqualTo(1.5 * first);
        }
    }
}
