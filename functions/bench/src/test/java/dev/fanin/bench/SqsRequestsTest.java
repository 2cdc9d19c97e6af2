package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.FaninConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SQS moves at most ten messages a request: a batch of n costs ceil(n / 10) receives and as many deletes. */
class SqsRequestsTest {

    private static final FaninConfig CONFIG = BenchPipelines.load();

    @Test
    void aBatchIsReceivedAndDeletedTenMessagesARequest() {
        assertThat(SqsRequests.receiveAndDelete(1)).isEqualTo(2);
        assertThat(SqsRequests.receiveAndDelete(10)).isEqualTo(2);
        assertThat(SqsRequests.receiveAndDelete(11)).isEqualTo(4);
        assertThat(SqsRequests.receiveAndDelete(100)).isEqualTo(20);
        assertThat(SqsRequests.of(0)).isZero();
    }

    /** Batches of up to 100: fanin and both baselines pay each batch's receives and deletes, ten messages a request. */
    @Test
    void bothSidesPayTenMessagesARequestOnTheInputQueue() {
        Workload workload = Workloads.named("alert-storm", 0.1, 7);
        Simulation.BatchShape shape = new Simulation.BatchShape(100, java.time.Duration.ofSeconds(1));
        List<List<Arrival>> batches = Simulation.batches(workload.arrivals(), shape);
        long receivesAndDeletes = batches.stream().mapToLong(b -> 2L * ((b.size() + 9) / 10)).sum();
        assertThat(batches).as("batches of more than ten messages").anyMatch(b -> b.size() > 10);

        BenchMain.ProfileReport report = BenchMain.run(CONFIG, workload, shape, 0);

        long baselinePolls = EventSourcePolls.BASELINE.over(report.timers().span());
        assertThat(report.competent().sqsRequests()).isEqualTo(receivesAndDeletes + baselinePolls);
        assertThat(report.baseline().sqsRequests()).isEqualTo(receivesAndDeletes + baselinePolls);
        assertThat(report.fanin().sqsRequests()).isGreaterThanOrEqualTo(receivesAndDeletes + EventSourcePolls.fanin(report.timers().span())
                + report.timers().timerSendRequests() + 2 * report.timers().timerInvocations());
    }
}
