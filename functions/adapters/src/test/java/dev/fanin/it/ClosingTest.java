package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.aws.sqs.TimerMessage;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.SweepReport;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/** Issue 4: every window closes (idle pipeline, hard lifetime, a sweeper with a budget, timers alone). */
class ClosingTest {

    static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");

    private static List<WindowRef> openFiveWindows(FaninStack stack) {
        List<InboundMessage> batch = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
            batch.add(stack.message("k" + k, "e1", T0.plusSeconds(1 + k)));
        }
        stack.process().ingest().handle(batch);
        return batch.stream().map(stack::ref).toList();
    }

    /** No event ever arrives again: the watermark's idle advance closes every window, before the hard lifetime. */
    @Test
    void anIdlePipelineClosesEveryWindowByTheWatermarksIdleAdvance() {
        FaninStack stack = FaninStack.rawPipeline(T0.plusSeconds(10), "window: {type: tumbling, size: 1m}",
                "triggers: {maxLifetime: 5m}", "watermark: {outOfOrderness: 5s, idleAfter: 30s}");
        List<WindowRef> windows = openFiveWindows(stack);
        // maxEt = T0+5s, last arrival T0+10s: the watermark reaches the end T0+60s at T0+10s+30s+60s.
        for (int step = 0; step < 8; step++) {
            stack.clock.advance(Duration.ofSeconds(15));
            stack.process().sweep();
        }
        assertThat(stack.clock.instant()).isBefore(T0.plus(Duration.ofMinutes(5)));
        for (WindowRef ref : windows) {
            assertThat(stack.window(ref).orElseThrow().status()).isEqualTo(WindowStatus.CLOSED);
            assertThat(stack.emitted(ref.aggregateId(0))).singleElement()
                    .satisfies(a -> assertThat(a.path("closeReason").asText()).isEqualTo("WATERMARK"));
        }
        stack.assertFlushInvariants();
    }

    /** A count that is never reached and a window far longer than the lifetime: the hard lifetime closes, flagged. */
    @Test
    void anIdlePipelineClosesEveryWindowByTheHardLifetimeAtTheLatest() {
        FaninStack stack = FaninStack.rawPipeline(T0.plusSeconds(10), "window: {type: tumbling, size: 1h}",
                "triggers: {count: 100, maxLifetime: 2m}");
        List<WindowRef> windows = openFiveWindows(stack);
        stack.clock.advance(Duration.ofMinutes(2).minusMillis(1));
        stack.process().sweep();
        assertThat(stack.emissions).as("one millisecond before the hard deadline").isEmpty();
        stack.clock.advance(Duration.ofMillis(1));
        stack.process().sweep();
        for (WindowRef ref : windows) {
            assertThat(stack.emitted(ref.aggregateId(0))).singleElement().satisfies(a -> {
                assertThat(a.path("closeReason").asText()).isEqualTo("HARD_LIFETIME");
                assertThat(a.path("complete").asBoolean()).isFalse();
            });
        }
        stack.assertFlushInvariants();
    }

    @Test
    void aSweeperWithASmallBudgetClosesEveryDueWindowOverSuccessiveRunsAndNoneTwice() {
        FaninStack stack = FaninStack.rawPipeline(T0.plusSeconds(10), "window: {type: tumbling, size: 1m}", "triggers: {maxLifetime: 2m}");
        List<InboundMessage> batch = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            batch.add(stack.message("k" + k, "e1", T0.plusSeconds(1)));
        }
        stack.process().ingest().handle(batch);
        stack.clock.advance(Duration.ofMinutes(3));

        FaninSettings budget = FaninSettings.defaults().withSweepMaxWindows(3);
        List<SweepReport> runs = new ArrayList<>();
        for (int run = 0; run < 6; run++) {
            runs.add(stack.process(budget).sweep());
            stack.clock.advance(Duration.ofSeconds(1));
        }
        assertThat(runs).allSatisfy(r -> assertThat(r.visited()).isLessThanOrEqualTo(3));
        assertThat(runs.subList(0, 3)).allSatisfy(r -> assertThat(r.exhausted()).isTrue());
        assertThat(runs.stream().mapToInt(SweepReport::claimed).sum()).isEqualTo(10);
        assertThat(runs.get(runs.size() - 1).visited()).isZero();
        assertThat(stack.commits()).hasSize(10).doesNotHaveDuplicates();
        for (InboundMessage m : batch) {
            assertThat(stack.window(stack.ref(m)).orElseThrow().status()).isEqualTo(WindowStatus.CLOSED);
        }
        stack.assertFlushInvariants();
    }

    /**
     * Shards swept in parallel (eight at once, as the functions do by default): every due window of many ingest
     * buckets, spread over the shards, closes exactly once, and the run leaves nothing listed for the next one.
     */
    @Test
    void aSweepOfShardsInParallelClosesEveryDueWindowOnceAndLeavesNothingListed() {
        FaninStack stack = FaninStack.rawPipeline(T0.plusSeconds(10), "window: {type: tumbling, size: 1m}", "triggers: {maxLifetime: 2m}");
        RaceTest.assumeAtomicConditionalWrites(stack);
        List<InboundMessage> all = new ArrayList<>();
        for (int batch = 0; batch < 8; batch++) {
            List<InboundMessage> messages = new ArrayList<>();
            for (int k = 0; k < 10; k++) {
                messages.add(stack.message("b" + batch + "-k" + k, "e1", T0.plusSeconds(1)));
            }
            stack.process().ingest().handle(messages);
            all.addAll(messages);
        }
        stack.clock.advance(Duration.ofMinutes(3));

        FaninSettings parallel = FaninSettings.defaults().withSweepParallelism(8);
        SweepReport first = stack.process(parallel).sweep();
        stack.clock.advance(Duration.ofMinutes(1));
        SweepReport second = stack.process(parallel).sweep();

        assertThat(first.claimed()).isEqualTo(80);
        assertThat(second.visited()).as("committed windows are not listed again").isZero();
        assertThat(stack.commits()).hasSize(80).doesNotHaveDuplicates();
        for (InboundMessage m : all) {
            assertThat(stack.window(stack.ref(m)).orElseThrow().status()).isEqualTo(WindowStatus.CLOSED);
        }
        stack.assertFlushInvariants();
    }

    /**
     * The window closes from its timer alone: the timer message armed at ingest is read from the timer queue (after
     * its real SQS delay, about one second) and handed to the timer service; no sweep runs. A redelivered timer is a
     * no-op.
     */
    @Test
    void aWindowClosesFromItsTimerAloneWithoutAnySweep() throws Exception {
        Instant windowStart = T0;
        Instant eventTime = windowStart.plusMillis(1_500);
        FaninStack stack = FaninStack.rawPipeline(eventTime.plusMillis(100), "window: {type: tumbling, size: 2s}",
                "triggers: {maxLifetime: 1m}", "watermark: {outOfOrderness: 0s, idleAfter: 1s}");
        InboundMessage m = stack.message("k", "e1", eventTime);
        WindowRef ref = stack.ref(m);
        stack.process().ingest().handle(List.of(m));
        stack.clock.advance(Duration.ofSeconds(2));

        String timerQueue = stack.resources.queueUrl("TimerQueue");
        List<Message> timers = new ArrayList<>();
        for (int wait = 0; wait < 10 && timers.isEmpty(); wait++) {
            timers.addAll(stack.endpoint.sqs().receiveMessage(r -> r.queueUrl(timerQueue).waitTimeSeconds(1).maxNumberOfMessages(10)).messages());
        }
        assertThat(timers).hasSize(1);
        TimerMessage timer = TimerMessage.parse(timers.get(0).body());
        assertThat(timer.wakeup().ref()).isEqualTo(ref);
        stack.process().timers().fire(timer.wakeup());
        stack.endpoint.sqs().deleteMessage(r -> r.queueUrl(timerQueue).receiptHandle(timers.get(0).receiptHandle()));

        JsonNode aggregate = stack.emitted(ref.aggregateId(0)).get(0);
        assertThat(aggregate.path("closeReason").asText()).isEqualTo("WATERMARK");
        assertThat(stack.window(ref).orElseThrow().status()).isEqualTo(WindowStatus.CLOSED);

        stack.process().timers().fire(timer.wakeup());
        assertThat(stack.emissions).hasSize(1);
        stack.assertFlushInvariants();
    }
}
