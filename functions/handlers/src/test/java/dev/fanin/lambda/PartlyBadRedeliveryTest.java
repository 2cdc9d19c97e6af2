package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.aws.sqs.SqsDeadLetters;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * An S3 notification with a bad record and a good one (the last message of events/sqs-bad-messages.json), delivered
 * to invocations with no time left, so the good record is handed back each time. The bad record must not be
 * dead-lettered at every delivery, and on the last one the message goes to the dead-letter queue once, with both
 * reasons, instead of being handed back to SQS's redrive (which would add a copy with no reason).
 */
class PartlyBadRedeliveryTest {

    @Test
    void aPartlyBadMessageHandedBackIsDeadLetteredOnceWithEveryReasonOnItsLastDelivery() {
        SQSEvent sample = SampleEvents.sqs("sqs-bad-messages.json");
        SQSEvent.SQSMessage partly = sample.getRecords().get(sample.getRecords().size() - 1);
        LocalFanin fanin = LocalFanin.start("partly", SampleEvents.lastSent(sample).plusSeconds(1));
        int max = Integer.parseInt(fanin.environment.get("FANIN_MAX_RECEIVE_COUNT"));
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(partly));

        for (int attempt = 1; attempt <= max; attempt++) {
            Map<String, String> attributes = new HashMap<>(partly.getAttributes());
            attributes.put("ApproximateReceiveCount", Integer.toString(attempt));
            partly.setAttributes(attributes);
            SQSBatchResponse response = new IngestFunction(fanin.runtime).handleRequest(event, TestContexts.invocation("p-" + attempt, 0));
            List<String> handedBack = response.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
            assertThat(handedBack).as("delivery %d of %d", attempt, max).isEqualTo(attempt < max ? List.of(partly.getMessageId()) : List.of());
        }

        List<Message> dead = fanin.receive(fanin.resources.queueUrl("InputDeadLetterQueue"), max + 1, Duration.ofSeconds(5), Duration.ofSeconds(1));
        assertThat(dead).singleElement().satisfies(m -> {
            assertThat(m.messageAttributes().get(SqsDeadLetters.REASON_CODE_ATTRIBUTE).stringValue()).isEqualTo("MISSING_KEY,RETRIES_EXHAUSTED");
            assertThat(m.messageAttributes().get(SqsDeadLetters.REASON_ATTRIBUTE).stringValue())
                    .contains("MISSING_KEY").contains("RETRIES_EXHAUSTED").contains("on delivery " + max);
        });
    }
}
