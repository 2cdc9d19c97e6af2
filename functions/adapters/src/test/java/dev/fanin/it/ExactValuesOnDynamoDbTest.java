package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.window.WindowRef;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Numbers no double holds, through the DynamoDB window table: the claim is written, the claimer crashes, and the
 * takeover re-emits the frozen aggregate it reads back from the table; the sum and the sampled payload are exact.
 */
class ExactValuesOnDynamoDbTest {

    private static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");

    private final FaninStack stack = FaninStack.rawPipeline(T0.plusSeconds(10),
            "window: {type: tumbling, size: 1m}",
            "triggers: {count: 2, maxLifetime: 2m}",
            "aggregations: [{name: total, type: sum, path: $.v}, {name: samples, type: first, n: 2, path: $.v}]");

    @Test
    void theTakeoverReEmitsTheExactSumAndSamplesItReadsFromTheTable() {
        List<InboundMessage> batch = List.of(
                stack.message("k", "1", T0.plusSeconds(1), Map.of("v", new BigDecimal("12345678901234567890.5"))),
                stack.message("k", "2", T0.plusSeconds(2), Map.of("v", new BigDecimal("0.250"))));
        WindowRef ref = stack.ref(batch.get(0));
        Process claimer = stack.process();
        claimer.store().crashOnce(ObservedStore.Phase.AFTER, "claim", ObservedStore.Write::isClaim);
        assertThatThrownBy(() -> claimer.ingest().handle(batch)).isInstanceOf(SimulatedCrash.class);

        stack.clock.advance(Duration.ofSeconds(41));
        stack.process().sweep();

        List<String> emitted = stack.emissions.stream().filter(r -> r.aggregateId().equals(ref.aggregateId(0)))
                .map(AggregateEmitter.Request::detailJson).toList();
        assertThat(emitted).singleElement().satisfies(detail -> assertThat(detail)
                .contains("\"total\":{\"value\":12345678901234567890.750,")
                .contains("\"value\":12345678901234567890.5}", "\"value\":0.250}"));
    }
}
