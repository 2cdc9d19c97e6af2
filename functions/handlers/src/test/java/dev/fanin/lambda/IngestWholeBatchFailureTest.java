package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.aws.sqs.SqsDeadLetters;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A batch that fails as a whole (here: a fresh container whose window table cannot be written, so recording the
 * pipelines it runs throws) hands its messages back, but one on its last delivery (ApproximateReceiveCount =
 * MaxReceiveCount) is dead-lettered by fanin with its reason: handed back, SQS's redrive moved it without any.
 */
class IngestWholeBatchFailureTest {

    private static final Instant SENT = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void aMessageOnItsLastDeliveryInAWholeBatchFailureIsDeadLetteredWithItsReason() {
        // The table the runtime writes is unavailable (stand-in: a name that does not exist; throttling behaves alike).
        LocalFanin fanin = LocalFanin.start("lastdel", SENT.plusSeconds(1), Map.of("FANIN_TABLE_NAME", "review-no-such-table"));
        int max = fanin.runtime.settings().maxReceiveCount();
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId("last-delivery");
        m.setBody("{\"type\":\"shard.done\",\"jobId\":\"etl\",\"runId\":\"r1\",\"shard\":0,\"shardCount\":4,\"rows\":1,"
                + "\"durationMs\":5,\"finishedAt\":\"2026-11-29T09:59:00Z\"}");
        m.setAttributes(Map.of("SentTimestamp", Long.toString(SENT.toEpochMilli()), "ApproximateReceiveCount", Integer.toString(max)));
        m.setEventSource("aws:sqs");
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(m));

        SQSBatchResponse response = new IngestFunction(fanin.runtime).handleRequest(event, TestContexts.invocation("last-1"));

        List<Message> dead = fanin.receive(fanin.resources.queueUrl("InputDeadLetterQueue"), 1, Duration.ofSeconds(3), Duration.ZERO);
        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(dead).singleElement().satisfies(d -> assertThat(d.messageAttributes().get(SqsDeadLetters.REASON_ATTRIBUTE)
                .stringValue()).startsWith("RETRIES_EXHAUSTED: the batch failed as a whole: ").endsWith("(on delivery " + max
                + ", MaxReceiveCount " + max + ")"));
    }
}
