package dev.fanin.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bounded simulation with consumer outages: every 5 minutes no consumer receives for 3, and the backlog then
 * comes in random order, on top of every other fault. Every invariant holds, among them that no event on time in
 * event order ends in the side output (docs/SEMANTICS.md, "Consumer lag").
 */
class OutageSimulationTest {

    static Stream<Arguments> runs() {
        // (tumbling seed 15: a window kept for verdicts opened by a worker whose clock was behind its first verdict's
        // writer, so it keeps that writer's later expiry.)
        return Stream.concat(Stream.of(Shape.values()).flatMap(shape -> Stream.of(11L, 22L).map(seed -> Arguments.of(shape, seed))),
                Stream.of(Arguments.of(Shape.TUMBLING, 15L)));
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("runs")
    void everyInvariantHoldsThroughOutagesAndShuffledBacklogs(Shape shape, long seed) {
        SimulationReport report = Simulation.run(SimulationConfig.outages(seed, List.of(shape)));

        assertThat(report.violations()).as("seed %d, %s:%n%s", seed, shape, report.summary()).isEmpty();
        assertThat(report.crashes()).as("crashes injected").isGreaterThan(10);
        assertThat(report.lost()).isZero();
        assertThat(report.doubleCounted()).isZero();
        assertThat(report.windowsLeftOpen()).isZero();
    }
}
