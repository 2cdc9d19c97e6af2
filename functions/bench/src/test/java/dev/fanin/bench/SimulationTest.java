package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.FaninConfig;
import org.junit.jupiter.api.Test;

/** Small runs through the real services: counts only, never timings. */
class SimulationTest {

    private static final FaninConfig CONFIG = BenchPipelines.load();

    @Test
    void everyWindowFiresOnceAndTheWriteUnitsMetricEqualsTheBilledWindowWrites() {
        Workload workload = Workloads.named("alert-storm", 0.1, 7);

        Simulation.Result result = Simulation.run(CONFIG, workload, Simulation.Mode.TIMERS, Simulation.BatchShape.DEFAULT);

        long distinctAggregates = result.emitted().stream().map(e -> e.request().aggregateId()).distinct().count();
        assertThat(distinctAggregates).isEqualTo(result.emitted().size());
        assertThat(result.accepted() + result.duplicates()).isEqualTo(BenchMain.parse(CONFIG, workload).size());
        assertThat(result.failedMessages()).isZero();
        assertThat(result.windowWriteUnitsMetric())
                .isEqualTo(result.bill().tableWriteUnits() - result.watermarkWriteUnits() - result.slotWriteUnits());
    }

    @Test
    void theBillSplitByFunctionAndByPartitionAddsUpToTheWholeBill() {
        Simulation.Result result = Simulation.run(CONFIG, Workloads.named("alert-storm", 0.1, 7), Simulation.Mode.TIMERS,
                Simulation.BatchShape.DEFAULT);

        FunctionLoad all = result.ingestLoad().plus(result.timerLoad()).plus(result.sweeperLoad());
        assertThat(all.dynamoDbCalls()).isEqualTo(result.bill().callsByOperation());
        assertThat(all.readUnits()).isCloseTo(result.bill().readUnits(), org.assertj.core.api.Assertions.within(1e-6));
        assertThat(all.writeUnits()).isCloseTo(result.bill().writeUnits(), org.assertj.core.api.Assertions.within(1e-6));
        assertThat(all.putEvents()).isEqualTo(result.emitCalls());
        assertThat(all.sqsSends()).isEqualTo(result.timerSendRequests() + result.sideOutputSends());
        assertThat(result.ingestLoad().invocations()).isEqualTo(result.batches());
        assertThat(result.timerLoad().invocations()).isEqualTo(result.timerInvocations());
        assertThat(result.sweeperLoad().invocations()).isEqualTo(result.sweeps());
        assertThat(result.bill().partitions().stream().mapToDouble(DynamoDbBill.PartitionUnits::writeUnits).sum())
                .isCloseTo(result.bill().writeUnits(), org.assertj.core.api.Assertions.within(1e-6));
        assertThat(result.bill().partitions().stream().mapToDouble(DynamoDbBill.PartitionUnits::readUnits).sum())
                .isCloseTo(result.bill().readUnits(), org.assertj.core.api.Assertions.within(1e-6));
    }

    @Test
    void theBaselineSeesTheSameSessionsAsFaninOnTheAlertStorm() {
        BenchMain.ProfileReport report = BenchMain.run(CONFIG, Workloads.named("alert-storm", 0.1, 7), Simulation.BatchShape.DEFAULT, 0);

        assertThat(report.baseline().windows()).isEqualTo(report.fanin().windows());
        assertThat(report.fanin().events()).isEqualTo(report.baseline().events());
    }

    @Test
    void batchesHoldAtMostTheBatchSizeAndKeepArrivalOrder() {
        Workload workload = Workloads.named("sparse", 0.01, 1);

        var batches = Simulation.batches(workload.arrivals(), Simulation.BatchShape.DEFAULT);

        assertThat(batches).allSatisfy(b -> assertThat(b).hasSizeBetween(1, 10));
        assertThat(batches.stream().mapToInt(java.util.List::size).sum()).isEqualTo(workload.arrivals().size());
        assertThat(batches.get(0).get(0)).isEqualTo(workload.arrivals().get(0));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "sparse-{0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2, 5})
    void sparseNGivesEveryKeyOneWindowOfNEvents(int perKey) {
        BenchMain.ProfileReport report = BenchMain.run(CONFIG, Workloads.named("sparse-" + perKey, 0.01, 1), Simulation.BatchShape.DEFAULT, 0);

        assertThat(report.fanin().windows()).isEqualTo(20);
        assertThat(report.baseline().windows()).isEqualTo(20);
        assertThat(report.fanin().events()).isEqualTo(20L * perKey);
    }

    /** late-sessions has too-late events in a session pipeline: each reported once, their verdicts' writes on their line. */
    @Test
    void lateSessionsRecordTheVerdictsOfTheirTooLateEvents() {
        Workload workload = Workloads.named(Workloads.LATE_SESSIONS, 0.5, 7);

        Simulation.Result result = Simulation.run(CONFIG, workload, Simulation.Mode.TIMERS, Simulation.BatchShape.DEFAULT);

        assertThat(result.tooLate()).isPositive();
        assertThat(result.sideRecords()).isEqualTo(result.tooLate());
        assertThat(result.accepted() + result.duplicates() + result.tooLate()).isEqualTo(BenchMain.parse(CONFIG, workload).size());
        assertThat(result.bill().writeUnits(Purpose.TOO_LATE_RECORD)).isPositive();
        assertThat(result.emitted().stream().map(e -> e.request().aggregateId()).distinct().count()).isEqualTo(result.emitted().size());
    }

    @Test
    void anUnknownProfileIsRefusedWithTheNamesThatExist() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Workloads.named("sparse-0", 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown profile \"sparse-0\"")
                .hasMessageContaining("sparse-N");
    }
}
