package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fanin.core.config.FaninConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sweeper's shard threads as the bench times them: tasks inline, billed as a fixed pool of threads runs them. */
class InlineShardsTest {

    @ParameterizedTest(name = "{0} on {1} threads: {2} ms")
    @CsvSource({
            // one thread: the sum; as many threads as tasks: the longest; else each task on the thread free first
            "'5,3,2', 1, 10",
            "'5,3,2', 3, 5",
            "'5,3,2', 8, 5",
            "'4,4,4,4,4', 2, 12",
            "'1,1,1,9', 2, 10",
            "'9,1,1,1', 2, 9",
            "'', 8, 0"})
    void theMakespanIsTheTasksInOrderEachOnTheThreadFreeFirst(String tasks, int threads, double expected) {
        List<Double> waits = tasks.isEmpty() ? List.of() : List.of(tasks.split(",")).stream().map(Double::valueOf).toList();

        assertThat(InlineShards.makespan(waits, threads)).isEqualTo(expected);
    }

    @Test
    void tasksRunWhenSubmittedAndTheWaitOutsideThemStaysSerial() throws Exception {
        double[] wait = {0};
        List<String> ran = new ArrayList<>();
        InlineShards shards = new InlineShards(() -> wait[0]);

        wait[0] += 7; // the run's calls before its shards (watermark, counter)
        Future<?> a = shards.submit(() -> { ran.add("a"); wait[0] += 30; });
        Future<?> b = shards.submit(() -> { ran.add("b"); wait[0] += 10; });
        Future<?> c = shards.submit(() -> { ran.add("c"); wait[0] += 20; });

        assertThat(ran).containsExactly("a", "b", "c");
        assertThat(a.isDone() && b.isDone() && c.isDone()).isTrue();
        assertThat(shards.wallMillis(67, 2)).as("7 serial + max(30, 10 + 20)").isEqualTo(37);
        assertThat(shards.wallMillis(5, 2)).as("no task since the last run").isEqualTo(5);
    }

    @Test
    void aRunBillsTheSweepersWaitAsItsThreadsSpendIt() {
        FaninConfig config = BenchPipelines.load();
        Simulation.Result run = Simulation.run(config, Workloads.named("sparse", 0.2, 7), Simulation.Mode.TIMERS, Simulation.BatchShape.DEFAULT);
        PriceTable prices = PriceTable.usEast1();
        DynamoDbBill bill = run.bill();
        double sweeperWait = bill.lines().entrySet().stream().filter(e -> e.getKey().function().equals(DynamoDbBill.SWEEPER))
                .mapToDouble(e -> CostLines.waitMillis(e.getValue(), prices)).sum();

        assertThat(bill.overlappedMillis(DynamoDbBill.SWEEPER)).as("the shards' waits overlap").isPositive()
                .isLessThan(sweeperWait * (Simulation.SWEEP_PARALLELISM - 1) / Simulation.SWEEP_PARALLELISM + 1e-9);
        assertThat(bill.overlappedMillis()).isCloseTo(bill.overlappedMillis(DynamoDbBill.SWEEPER), within(1e-9));
        assertThat(bill.copy().overlappedMillis()).isEqualTo(bill.overlappedMillis());
        assertThat(bill.since(bill.copy()).overlappedMillis()).isZero();
    }
}
