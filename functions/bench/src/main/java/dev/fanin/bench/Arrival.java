package dev.fanin.bench;

import dev.fanin.core.intake.InboundMessage;
import java.time.Instant;
import java.util.Map;

/** One SQS message of a workload and the processing time it becomes visible on the input queue. */
public record Arrival(Instant at, String messageId, String body) {

    /** The message as the ingest function receives it at {@code receivedAt}. */
    public InboundMessage message(Instant receivedAt) {
        return new InboundMessage(messageId, body,
                Map.of(InboundMessage.SENT_TIMESTAMP, Long.toString(at.toEpochMilli()), "ApproximateReceiveCount", "1"), receivedAt);
    }
}
