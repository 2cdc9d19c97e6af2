package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Windows whose events are large still close, on DynamoDB and EventBridge (issue 13, item 3): a 256 KB alert used to
 * make a claim larger than a DynamoDB item, and five 53 KB alerts an aggregate EventBridge refuses, so the claim was
 * taken over again and again. Samples over {@code maxValueBytes} are trimmed (flagged), so both windows emit and
 * commit once.
 */
class LargeWindowsCloseTest {

    private static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");

    private static FaninStack stack(int count) {
        return FaninStack.rawPipeline(T0.plusSeconds(10),
                "window: {type: session, gap: 30s}",
                "triggers: {count: " + count + ", maxLifetime: 10m}",
                "aggregations: [{name: alerts, type: count}, {name: samples, type: last, n: 5}]");
    }

    /** Alerts whose detail is random printable text: it barely deflates (to about 82 %), as the state item would. */
    private static List<InboundMessage> alerts(FaninStack stack, int n, int detailChars) {
        Random random = new Random(n);
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder detail = new StringBuilder(detailChars);
            while (detail.length() < detailChars) {
                char c = (char) (' ' + random.nextInt(95));
                if (c != '"' && c != '\\') {
                    detail.append(c);
                }
            }
            batch.add(stack.message("acct-1", "a" + i, T0.plusSeconds(i), Map.of("detail", detail.toString())));
        }
        return batch;
    }

    private static void assertClosedOnceWithTrimmedSamples(FaninStack stack, WindowRef ref, int events) throws Exception {
        assertThat(stack.commits()).containsExactly(ref.aggregateId(0));
        String detail = stack.emissions.get(0).detailJson();
        assertThat(detail.length()).isLessThan(20_000);
        JsonNode aggregate = ExactJson.read(detail);
        assertThat(aggregate.path("aggregations").path("alerts").asInt()).isEqualTo(events);
        JsonNode samples = aggregate.path("aggregations").path("samples");
        assertThat(samples).hasSize(events);
        samples.forEach(s -> {
            assertThat(s.path("trimmed").asBoolean()).isTrue();
            assertThat(s.path("value").isNull()).isTrue();
        });
        stack.assertFlushInvariants();
    }

    @Test
    void aWindowHoldingOneAlertOfAQuarterMegabyteClosesWithItsSampleTrimmed() throws Exception {
        FaninStack stack = stack(1);
        List<InboundMessage> batch = alerts(stack, 1, 261_000);

        BatchResult r = stack.process().ingest().handle(batch);

        assertThat(r.failedMessageIds()).isEmpty();
        assertClosedOnceWithTrimmedSamples(stack, new WindowRef("p", "acct-1", WindowRef.sessionId(T0.toEpochMilli())), 1);
    }

    @Test
    void aWindowOfFiveAlertsOf53KilobytesEmitsWithinWhatEventBridgeTakes() throws Exception {
        FaninStack stack = stack(5);
        List<InboundMessage> batch = alerts(stack, 5, 53_000);

        BatchResult r = stack.process().ingest().handle(batch);

        assertThat(r.failedMessageIds()).isEmpty();
        assertClosedOnceWithTrimmedSamples(stack, new WindowRef("p", "acct-1", WindowRef.sessionId(T0.toEpochMilli())), 5);
    }
}
