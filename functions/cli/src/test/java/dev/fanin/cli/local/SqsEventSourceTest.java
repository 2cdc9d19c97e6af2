package dev.fanin.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.testkit.LocalAws;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The local event source mapping against a real SQS API: what it hands the function, and what it deletes. */
@ExtendWith(LocalAws.class)
class SqsEventSourceTest {

    private static final FunctionSettingsFromTemplate.EventSource TEN =
            new FunctionSettingsFromTemplate.EventSource("TestFunction", 10, Duration.ZERO, Duration.ofSeconds(30));

    private static String queue(SqsClient sqs, int visibilitySeconds) {
        return sqs.createQueue(r -> r.queueName("evsrc-" + UUID.randomUUID())
                .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, String.valueOf(visibilitySeconds)))).queueUrl();
    }

    private static List<Message> remaining(SqsClient sqs, String url) {
        return sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(3)
                .messageSystemAttributeNamesWithStrings("All")).messages();
    }

    @Test
    void deletesExactlyTheMessagesNotReportedAsFailuresAndBuildsLambdasRecords(SqsClient sqs) throws Exception {
        String url = queue(sqs, 1);
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("ok-1")
                .messageAttributes(Map.of("origin", MessageAttributeValue.builder().dataType("String").stringValue("test").build())));
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("fail-me"));
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("ok-2"));
        List<SQSEvent> seen = new CopyOnWriteArrayList<>();
        try (SqsEventSource source = new SqsEventSource(sqs, url, TEN, (event, context) -> {
            if (seen.isEmpty()) {
                seen.add(event);
                return SQSBatchResponse.builder().withBatchItemFailures(event.getRecords().stream()
                        .filter(m -> m.getBody().equals("fail-me"))
                        .map(m -> SQSBatchResponse.BatchItemFailure.builder().withItemIdentifier(m.getMessageId()).build())
                        .toList()).build();
            }
            return SQSBatchResponse.builder().withBatchItemFailures(List.of()).build();
        }, (f, records, failed, threw, took) -> { }, Clock.systemUTC()).start()) {
            waitFor(() -> !seen.isEmpty());
        }

        List<SQSEvent.SQSMessage> records = seen.get(0).getRecords();
        assertThat(records).extracting(SQSEvent.SQSMessage::getEventSource).containsOnly("aws:sqs");
        assertThat(records.get(0).getEventSourceArn()).startsWith("arn:aws:sqs:us-east-1:").endsWith(url.substring(url.lastIndexOf('/') + 1));
        assertThat(records.get(0).getAwsRegion()).isEqualTo("us-east-1");
        assertThat(records).allSatisfy(m -> {
            assertThat(m.getReceiptHandle()).isNotBlank();
            assertThat(m.getAttributes()).containsEntry("ApproximateReceiveCount", "1").containsKey("SentTimestamp");
        });
        assertThat(records).filteredOn(m -> m.getBody().equals("ok-1")).singleElement()
                .satisfies(m -> assertThat(m.getMessageAttributes().get("origin").getStringValue()).isEqualTo("test"));
        List<Message> left = remaining(sqs, url);
        assertThat(left).extracting(Message::body).containsExactly("fail-me");
        // Received again, not deleted: at least twice (a poll before close may have taken it once more, as
        // LocalStack and SQS return a message whose visibility ends during a long poll).
        assertThat(Integer.parseInt(left.get(0).attributesAsStrings().get("ApproximateReceiveCount"))).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aThrowingHandlerFailsTheWholeBatch(SqsClient sqs) throws Exception {
        String url = queue(sqs, 1);
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("a"));
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("b"));
        List<Boolean> threwReported = new CopyOnWriteArrayList<>();
        try (SqsEventSource source = new SqsEventSource(sqs, url, TEN, (event, context) -> {
            throw new IllegalStateException("boom");
        }, (f, records, failed, threw, took) -> threwReported.add(threw), Clock.systemUTC()).start()) {
            waitFor(() -> !threwReported.isEmpty());
        }

        assertThat(threwReported.get(0)).isTrue();
        assertThat(remaining(sqs, url)).extracting(Message::body).containsExactlyInAnyOrder("a", "b");
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long until = System.currentTimeMillis() + 15_000;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < until) {
            Thread.sleep(50);
        }
        assertThat(condition.getAsBoolean()).as("condition within 15 s").isTrue();
    }
}
