package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.MetricNames;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 4: a crash at each step of the flush (claim, emit, commit, takeover). After recovery (SQS redelivers the
 * batch of the crashed invocation, the lease ends, a sweep takes over) the window has exactly one committed close,
 * every emission carries the same aggregate id and the same aggregate, and every event is counted once.
 * The count trigger makes the ingest invocation itself claim and flush.
 */
class FlushCrashRecoveryTest {

    static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");
    /**
     * Past the claim's 30 s lease, and past the 40 s after which the ingest's due listing falls due (its 30 s timeout
     * plus 10 s for requests in flight): a sweep then finds the claim.
     */
    static final Duration PAST_LEASE = Duration.ofSeconds(41);

    private final FaninStack stack = FaninStack.rawPipeline(T0.plusSeconds(10),
            "window: {type: tumbling, size: 1m}",
            "triggers: {count: 3, maxLifetime: 2m}");
    private final List<InboundMessage> batch = List.of(
            stack.message("k", "1", T0.plusSeconds(1)),
            stack.message("k", "2", T0.plusSeconds(2)),
            stack.message("k", "3", T0.plusSeconds(3)));
    private final WindowRef ref = stack.ref(batch.get(0));
    private final String aggregateId = ref.aggregateId(0);

    @Test
    void crashAfterClaim() {
        Process p = stack.process();
        p.store().crashOnce(ObservedStore.Phase.AFTER, "claim", ObservedStore.Write::isClaim);
        assertThatThrownBy(() -> p.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);
        assertThat(stack.window(ref).orElseThrow().status()).isEqualTo(WindowStatus.CLAIMED);

        recover();
        assertThat(stack.emitted(aggregateId)).hasSize(1);
        assertThat(stack.metrics.sum(MetricNames.TAKEOVERS)).isEqualTo(1);
    }

    @Test
    void crashAfterEmit() {
        Process p = stack.process();
        p.emitter().crashOnceAfterSending(r -> true);
        assertThatThrownBy(() -> p.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);
        assertThat(stack.emitted(aggregateId)).hasSize(1);

        recover();
        assertThat(stack.emitted(aggregateId)).as("re-emitted by the takeover, same id").hasSize(2);
    }

    @Test
    void crashBeforeCommit() {
        Process p = stack.process();
        p.store().crashOnce(ObservedStore.Phase.BEFORE, "commit", ObservedStore.Write::isCommit);
        assertThatThrownBy(() -> p.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);
        assertThat(stack.window(ref).orElseThrow().status()).isEqualTo(WindowStatus.CLAIMED);

        recover();
        assertThat(stack.emitted(aggregateId)).hasSize(2);
    }

    @Test
    void crashDuringTakeover() {
        Process p = stack.process();
        p.store().crashOnce(ObservedStore.Phase.AFTER, "claim", ObservedStore.Write::isClaim);
        assertThatThrownBy(() -> p.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);

        stack.clock.advance(PAST_LEASE);
        Process sweeper = stack.process();
        sweeper.store().crashOnce(ObservedStore.Phase.AFTER, "takeover", ObservedStore.Write::isTakeover);
        assertThatThrownBy(sweeper::sweep).isInstanceOf(SimulatedCrash.class);
        WindowState taken = stack.window(ref).orElseThrow();
        assertThat(taken.status()).isEqualTo(WindowStatus.CLAIMED);
        assertThat(taken.fence()).isEqualTo(2);

        recover();
        assertThat(stack.emitted(aggregateId)).hasSize(1);
        assertThat(stack.metrics.sum(MetricNames.TAKEOVERS)).isEqualTo(2);
    }

    @Test
    void crashAfterTheTakeoversEmission() {
        Process p = stack.process();
        p.store().crashOnce(ObservedStore.Phase.AFTER, "claim", ObservedStore.Write::isClaim);
        assertThatThrownBy(() -> p.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);

        stack.clock.advance(PAST_LEASE);
        Process sweeper = stack.process();
        sweeper.emitter().crashOnceAfterSending(r -> true);
        assertThatThrownBy(sweeper::sweep).isInstanceOf(SimulatedCrash.class);

        recover();
        assertThat(stack.emitted(aggregateId)).hasSize(2);
    }

    /**
     * Not a crash but a pause: the claimer stalls before emitting, its lease ends, a sweeper takes over, emits and
     * commits; then the claimer wakes, emits (a duplicate with the same id) and its commit finds another fence:
     * nothing written, counted as a duplicate flush.
     */
    @Test
    void aStalledClaimerWhoseLeaseEndedEmitsTheSameAggregateAndItsCommitIsFencedOff() {
        Process slow = stack.process();
        slow.emitter().pauseBeforeNextEmit(() -> {
            stack.clock.advance(PAST_LEASE);
            stack.process().sweep();
        });
        BatchResult result = slow.ingest().handle(batch);
        assertThat(result.failedMessageIds()).isEmpty();

        assertThat(stack.commits()).containsExactly(aggregateId);
        assertThat(stack.emitted(aggregateId)).hasSize(2);
        assertThat(stack.metrics.sum(MetricNames.DUPLICATE_FLUSHES)).isEqualTo(1);
        assertClosedOnceWithEveryEvent();
    }

    /** SQS redelivers the crashed invocation's batch; the lease ends; the next sweep finishes the flush. */
    private void recover() {
        BatchResult redelivery = stack.process().ingest().handle(FaninStack.redelivered(batch));
        assertThat(redelivery.failedMessageIds()).isEmpty();
        assertThat(redelivery.duplicates()).isEqualTo(3);
        stack.clock.advance(PAST_LEASE);
        stack.process().sweep();
        // A second sweep after another lease finds nothing left to do.
        stack.clock.advance(PAST_LEASE);
        stack.process().sweep();
        assertClosedOnceWithEveryEvent();
    }

    private void assertClosedOnceWithEveryEvent() {
        WindowState window = stack.window(ref).orElseThrow();
        assertThat(window.status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(window.committedRevision()).isZero();
        assertThat(stack.commits()).containsExactly(aggregateId);
        for (JsonNode emission : stack.emitted(aggregateId)) {
            assertThat(emission.path("closeReason").asText()).isEqualTo("COUNT");
            assertThat(emission.path("aggregations").path("count").asInt()).isEqualTo(3);
        }
        assertThat(stack.aggregatesOnBus()).extracting(a -> a.path("aggregateId").asText())
                .containsOnly(aggregateId)
                .hasSize(stack.emitted(aggregateId).size());
        stack.assertFlushInvariants();
    }
}
