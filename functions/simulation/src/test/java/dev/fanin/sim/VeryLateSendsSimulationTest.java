package dev.fanin.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bounded simulation with half of its sends very late (seed 2, shard-completions): windows become final while
 * copies of their events still come, decided by workers whose clocks disagree by up to the simulation's skew. A copy
 * judged too late by a final window on a fast clock was counted by a slower one (a review found it:
 * dev.fanin.core.service.TooLateFinalSkewTest); every invariant holds. The one-minute rollup's windows are left
 * with every event too late, kept for their verdicts alone, and their copies too late again.
 */
class VeryLateSendsSimulationTest {

    @ParameterizedTest(name = "{0} seed {1}")
    @CsvSource({"TUMBLING_EXPECTED, 2", "TUMBLING, 1", "TUMBLING, 2"})
    void everyInvariantHoldsWithHalfTheSendsVeryLate(Shape shape, long seed) {
        SimulationConfig b = SimulationConfig.bounded(seed, List.of(shape));
        SimulationConfig veryLate = new SimulationConfig(b.seed(), b.shapes(), 1_500, 200, b.eventsPerSecond(), b.duplicates(),
                b.reorder(), b.late(), 0.5, 0, b.floodAfter(), b.maxOpenWindows(), b.idleEvery(), b.idleFor(), b.workers(),
                b.maxSkew(), b.visibilityTimeout(), b.maxReceiveCount(), b.sweepPeriod(), b.faults());

        SimulationReport report = Simulation.run(veryLate);

        assertThat(report.violations()).as(report.summary()).isEmpty();
    }
}
