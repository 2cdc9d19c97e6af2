package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.aggregate.EventIdDigest;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.service.BatchResult;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, item 1, over real HTTP: two processes ingest overlapping batches of one session key at the same moment
 * (released together by a barrier), a fresh key each round. SQS does not route by key, so this happens whenever a key
 * is busy. The key's live item is written under its version, so the second writer re-reads the first's session and
 * joins it: one session, every event counted once, whichever wins.
 */
class SessionRaceTest {

    static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");

    @Test
    void twoIngestersRacingOnOneSessionKeyMakeOneSessionCountingEveryEventOnce() {
        FaninStack stack = FaninStack.rawPipeline(T0, "window: {type: session, gap: 30s}", "triggers: {maxLifetime: 2h}");
        Assumptions.assumeTrue(stack.endpoint.atomicConditionalWrites(),
                "plain moto's conditional writes are not atomic under concurrency; run with the testkit's serialised moto, LocalStack or AWS_ENDPOINT_URL");
        for (int round = 0; round < Integer.getInteger("fanin.it.rounds", 15); round++) {
            String key = "k" + round;
            // The case: A {e0 at t, e2 at t+3s}, B {e2 at t+3s, e5 at t+5s}.
            List<InboundMessage> a = List.of(stack.message(key, "e0", T0), stack.message(key, "e2", T0.plusSeconds(3)));
            List<InboundMessage> b = List.of(stack.message(key, "e2", T0.plusSeconds(3)), stack.message(key, "e5", T0.plusSeconds(5)));
            Process pa = stack.process();
            Process pb = stack.process();

            List<BatchResult> results = Race.run(() -> pa.ingest().handle(a), () -> pb.ingest().handle(b));

            assertThat(results).allSatisfy(r -> assertThat(r.failedMessageIds()).isEmpty());
            List<WindowState> sessions = stack.windowsOfKey(key);
            assertThat(sessions).as("round %d: one session", round).hasSize(1);
            WindowState session = sessions.get(0);
            assertThat(session.revisionEvents()).as("round %d", round).isEqualTo(3);
            assertThat(session.eventIds()).containsExactlyInAnyOrder(EventIdDigest.of("e0"), EventIdDigest.of("e2"), EventIdDigest.of("e5"));
            assertThat(results.get(0).eventsAccepted() + results.get(1).eventsAccepted()).isEqualTo(3);
            assertThat(results.get(0).duplicates() + results.get(1).duplicates()).isEqualTo(1);
        }
    }
}
