package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.port.AggregateEmitter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PutEvents calls as the EventBridge adapter makes them: ten entries a call. */
class TimedEmitterTest {

    private final TimedEmitter emitter = new TimedEmitter(Clock.fixed(Instant.parse("2026-11-29T00:00:00Z"), ZoneOffset.UTC));

    @Test
    void aRoundOfTwentyFiveAggregatesIsThreeCalls() {
        emitter.emit(requests(25, 0));
        emitter.emit(requests(1, 0));

        assertThat(emitter.calls()).isEqualTo(4);
        assertThat(emitter.emitted()).hasSize(26);
    }

    @Test
    void theCallsOnlyLaterRevisionsTakeAreTheCorrections() {
        emitter.emit(requests(20, 5)); // 25 entries: 3 calls, where the 20 first revisions alone take 2
        emitter.emit(requests(0, 4));  // corrections alone: 1 call, theirs

        assertThat(emitter.calls()).isEqualTo(4);
        assertThat(emitter.correctionCalls()).isEqualTo(2);
    }

    /** {@code first} first revisions, then {@code later} corrections. */
    private static List<AggregateEmitter.Request> requests(int first, int later) {
        List<AggregateEmitter.Request> requests = new ArrayList<>();
        for (int i = 0; i < first + later; i++) {
            String corrects = i < first ? "null" : "\"p:k:w:" + i + "\"";
            requests.add(new AggregateEmitter.Request("a-" + i, "p", "{\"aggregateId\":\"a-" + i + "\",\"corrects\":" + corrects + "}"));
        }
        return requests;
    }
}
