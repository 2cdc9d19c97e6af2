package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Issue 3: at-least-once input never counts an event twice, whatever the duplication or the crash. */
class IngestDedupeTest {

    static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");

    private final FaninStack stack = FaninStack.rawPipeline(T0.plusSeconds(10),
            "window: {type: tumbling, size: 1m}",
            "triggers: {maxLifetime: 2m}");

    @Test
    void duplicatesInOneBatchAndAcrossBatchesAreCountedOnce() {
        Process p = stack.process();
        InboundMessage a1 = stack.message("a", "1", T0.plusSeconds(1));
        List<InboundMessage> first = List.of(a1, stack.message("a", "2", T0.plusSeconds(2)),
                stack.message("a", "1", T0.plusSeconds(1)), stack.message("a", "3", T0.plusSeconds(3)));
        BatchResult r1 = p.ingest().handle(first);
        assertThat(r1.failedMessageIds()).isEmpty();
        assertThat(r1.eventsAccepted()).isEqualTo(3);
        assertThat(r1.duplicates()).isEqualTo(1);

        stack.clock.advance(Duration.ofSeconds(5));
        BatchResult r2 = p.ingest().handle(List.of(stack.message("a", "2", T0.plusSeconds(2)),
                stack.message("a", "3", T0.plusSeconds(3)), stack.message("a", "4", T0.plusSeconds(4))));
        assertThat(r2.eventsAccepted()).isEqualTo(1);
        assertThat(r2.duplicates()).isEqualTo(2);

        WindowRef ref = stack.ref(a1);
        WindowState window = stack.window(ref).orElseThrow();
        assertThat(window.revisionEvents()).isEqualTo(4);
        assertThat(window.eventIds()).hasSize(4);

        stack.clock.advance(Duration.ofMinutes(3));
        p.sweep();
        JsonNode aggregate = stack.emitted(ref.aggregateId(0)).get(0);
        assertThat(aggregate.path("aggregations").path("count").asInt()).isEqualTo(4);
        stack.assertFlushInvariants();
    }

    @Test
    void aBatchRedeliveredAfterACrashInItsMiddleCountsEveryEventExactlyOnce() {
        List<InboundMessage> batch = new ArrayList<>();
        for (String key : List.of("a", "b", "c", "d")) {
            for (int i = 1; i <= 3; i++) {
                batch.add(stack.message(key, key + i, T0.plusSeconds(i)));
            }
        }
        Process crashing = stack.process();
        AtomicInteger applied = new AtomicInteger();
        crashing.store().crashOnce(ObservedStore.Phase.AFTER, "second window write", w -> applied.incrementAndGet() == 2);
        assertThatThrownBy(() -> crashing.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);
        assertThat(stack.writes).hasSize(2);

        BatchResult retry = stack.process().ingest().handle(FaninStack.redelivered(batch));
        assertThat(retry.failedMessageIds()).isEmpty();
        assertThat(retry.duplicates()).as("the two windows written before the crash").isEqualTo(6);
        assertThat(retry.eventsAccepted()).isEqualTo(6);

        for (String key : List.of("a", "b", "c", "d")) {
            WindowRef ref = stack.ref(stack.message(key, key + 1, T0.plusSeconds(1)));
            assertThat(stack.window(ref).orElseThrow().revisionEvents()).as(key).isEqualTo(3);
        }
        stack.clock.advance(Duration.ofMinutes(3));
        stack.process().sweep();
        assertThat(stack.commits()).hasSize(4);
        for (String aggregateId : stack.commits()) {
            assertThat(stack.emitted(aggregateId).get(0).path("aggregations").path("count").asInt()).isEqualTo(3);
        }
        stack.assertFlushInvariants();
    }
}
