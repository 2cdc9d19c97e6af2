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
 * The flush of a session's first close, crashed at each of its steps: the claim is a write of the key's live item,
 * the commit a write of the session's own item and then its removal from the live item. After recovery (SQS
 * redelivers the batch, the lease ends, a sweep takes over) the session is committed exactly once, every emission
 * carries the same aggregate, and every event is counted once.
 */
class SessionFlushCrashRecoveryTest {

    static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");
    /** Past the claim's 30 s lease and the ingest's due listing (40 s). */
    static final Duration PAST_LEASE = Duration.ofSeconds(41);

    private final FaninStack stack = FaninStack.rawPipeline(T0.plusSeconds(10),
            "window: {type: session, gap: 30s}",
            "triggers: {count: 3, maxLifetime: 2m}");
    private final List<InboundMessage> batch = List.of(
            stack.message("k", "1", T0.plusSeconds(1)),
            stack.message("k", "2", T0.plusSeconds(2)),
            stack.message("k", "3", T0.plusSeconds(3)));
    private final String aggregateId = new WindowRef("p", "k", WindowRef.sessionId(T0.plusSeconds(1).toEpochMilli())).aggregateId(0);

    @Test
    void crashAfterTheClaimInTheLiveItem() {
        Process p = stack.process();
        p.store().crashOnce(ObservedStore.Phase.AFTER, "claim", ObservedStore.Write::isClaim);
        assertThatThrownBy(() -> p.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);
        assertThat(session().status()).isEqualTo(WindowStatus.CLAIMED);

        recover();
        assertThat(stack.emitted(aggregateId)).hasSize(1);
        assertThat(stack.metrics.sum(MetricNames.TAKEOVERS)).isEqualTo(1);
    }

    @Test
    void crashBeforeTheCommittedCopyIsWritten() {
        Process p = stack.process();
        p.store().crashOnce(ObservedStore.Phase.BEFORE, "commit", ObservedStore.Write::isCommit);
        assertThatThrownBy(() -> p.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);

        recover();
        assertThat(stack.emitted(aggregateId)).as("re-emitted by the takeover, same id").hasSize(2);
    }

    /**
     * The committed copy is written but the session is still in the live item, CLAIMED: the live copy is authoritative,
     * so its lease ends and a takeover commits it again, over the crashed committer's copy.
     */
    @Test
    void crashBetweenTheCommittedCopyAndTheRemovalFromTheLiveItem() {
        Process p = stack.process();
        p.store().crashOnce(ObservedStore.Phase.AFTER, "commit", ObservedStore.Write::isCommit);
        assertThatThrownBy(() -> p.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);
        assertThat(session().status()).as("the live copy").isEqualTo(WindowStatus.CLAIMED);

        recover();
        assertThat(stack.emitted(aggregateId)).hasSize(2);
        assertThat(stack.metrics.sum(MetricNames.TAKEOVERS)).isEqualTo(1);
    }

    /** SQS redelivers the crashed invocation's batch; the lease ends; the next sweep finishes the flush. */
    private void recover() {
        BatchResult redelivery = stack.process().ingest().handle(FaninStack.redelivered(batch));
        assertThat(redelivery.failedMessageIds()).isEmpty();
        assertThat(redelivery.duplicates()).isEqualTo(3);
        stack.clock.advance(PAST_LEASE);
        stack.process().sweep();
        stack.clock.advance(PAST_LEASE);
        stack.process().sweep();

        WindowState session = session();
        assertThat(session.status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(session.committedRevision()).isZero();
        assertThat(stack.commits()).containsExactly(aggregateId);
        for (JsonNode emission : stack.emitted(aggregateId)) {
            assertThat(emission.path("closeReason").asText()).isEqualTo("COUNT");
            assertThat(emission.path("aggregations").path("count").asInt()).isEqualTo(3);
        }
        stack.assertFlushInvariants();
    }

    private WindowState session() {
        List<WindowState> sessions = stack.windowsOfKey("k");
        assertThat(sessions).hasSize(1);
        return sessions.get(0);
    }
}
