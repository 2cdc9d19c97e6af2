package dev.fanin.bench;

import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.core.intake.InboundMessage;
import java.time.Instant;

/** One SQS message of a workload and the processing time it becomes visible on the input queue. */
public record Arrival(Instant at, String messageId, String body) {

    /** The message as the ingest function receives it at {@code receivedAt}. */
    public InboundMessage message(Instant receivedAt) {
        return SqsDeliveries.inbound(messageId, body, SqsDeliveries.systemAttributes(at, 1), receivedAt);
    }
}
