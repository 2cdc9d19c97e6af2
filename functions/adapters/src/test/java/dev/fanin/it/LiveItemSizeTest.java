package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.service.BatchResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A key's live item stays within what one DynamoDB item holds. Three sessions of first and last samples near the
 * 8 KB default trim, in one batch, are each cut at the live state bound and keep a frozen aggregate until their
 * commit: one write of all of it would be 535 KB, which DynamoDB refused as invalid, and the key's messages were
 * retried and then dead-lettered. Now the later events go back to the queue and count on their redelivery.
 */
class LiveItemSizeTest {

    private static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");

    @Test
    void eventsThatWouldOverfillTheLiveItemComeBackAndCountOnce() throws Exception {
        FaninStack stack = FaninStack.rawPipeline(T0.plusSeconds(10),
                "window: {type: session, gap: 30s}",
                "triggers: {maxLifetime: 10m}", "watermark: {outOfOrderness: 5m, idleAfter: 10m}",
                "aggregations: [{name: n, type: count}, {name: firsts, type: first, n: 8}, {name: lasts, type: last, n: 8}]");
        List<InboundMessage> batch = threeSessionsOfLargeSamples(stack);

        BatchResult first = stack.process().ingest().handle(batch);

        assertThat(first.failedMessageIds()).as("some events handed back, not all").isNotEmpty().hasSizeLessThan(batch.size());
        assertThat(first.eventsAccepted()).isEqualTo(batch.size() - first.failedMessageIds().size());
        List<InboundMessage> again = FaninStack.redelivered(batch.stream().filter(m -> first.failedMessageIds().contains(m.messageId())).toList());
        for (int round = 0; round < 6 && !again.isEmpty(); round++) {
            BatchResult r = stack.process().ingest().handle(again);
            List<String> failed = r.failedMessageIds();
            again = FaninStack.redelivered(again.stream().filter(m -> failed.contains(m.messageId())).toList());
        }

        assertThat(again).as("every event taken within a few deliveries").isEmpty();
        stack.clock.advance(Duration.ofMinutes(20));
        stack.process().sweep();
        Map<String, JsonNode> latest = new TreeMap<>();
        for (JsonNode aggregate : stack.aggregatesOnBus()) {
            latest.merge(aggregate.path("window").path("id").asText(), aggregate,
                    (a, b) -> a.path("revision").asInt() >= b.path("revision").asInt() ? a : b);
        }
        assertThat(latest.values().stream().mapToLong(a -> a.path("aggregations").path("n").asLong()).sum())
                .as("each event counted once, by the latest revision of its session").isEqualTo(batch.size());
        assertThat(stack.drain(stack.resources.queueUrl("InputDeadLetterQueue"))).isEmpty();
        stack.assertFlushInvariants();
    }

    /** 14 events each for three sessions 45 s apart, each event carrying 8,000 characters of random printable text. */
    private static List<InboundMessage> threeSessionsOfLargeSamples(FaninStack stack) {
        Random random = new Random(7);
        List<InboundMessage> batch = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < 14; i++) {
                StringBuilder v = new StringBuilder();
                while (v.length() < 8_000) {
                    char c = (char) (' ' + random.nextInt(95));
                    if (c != '"' && c != '\\') {
                        v.append(c);
                    }
                }
                batch.add(stack.message("k", "e" + s + "-" + i, T0.minusSeconds(120 - s * 45L - i), Map.of("v", v.toString())));
            }
        }
        return batch;
    }
}
