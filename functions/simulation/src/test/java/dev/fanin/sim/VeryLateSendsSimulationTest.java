package dev.fanin.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bounded simulation with half of its sends very late (seed 2, shard-completions): windows become final while
 * copies of their events still come, decided by workers whose clocks disagree by up to the simulation's skew. A copy
 * judged too late by a final window on a fast clock was counted by a slower one (a review found it:
 * dev.fanin.core.service.TooLateFinalSkewTest); every invariant holds.
 */
class VeryLateSendsSimulationTest {

    @Test
    void everyInvariantHoldsWithHalfTheSendsVeryLate() {
        SimulationConfig b = SimulationConfig.bounded(2, List.of(Shape.TUMBLING_EXPECTED));
        SimulationConfig veryLate = new SimulationConfig(b.seed(), b.shapes(), 1_500, 200, b.eventsPerSecond(), b.duplicates(),
                b.reorder(), b.late(), 0.5, 0, b.floodAfter(), b.maxOpenWindows(), b.idleEvery(), b.idleFor(), b.workers(),
                b.maxSkew(), b.visibilityTimeout(), b.maxReceiveCount(), b.sweepPeriod(), b.faults());

        SimulationReport report = Simulation.run(veryLate);

        assertThat(report.violations()).as(report.summary()).isEmpty();
    }
}
