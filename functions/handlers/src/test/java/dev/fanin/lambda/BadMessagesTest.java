package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.aws.sqs.SqsDeadLetters;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * {@code events/sqs-bad-messages.json} through the ingest function: every bad message lands on the input queue's
 * dead-letter queue, once, with its body, its {@code fanin-reason-code} and a {@code fanin-reason} naming the reason; the S3 test event is only
 * counted; the batch itself never fails, so nothing is redelivered.
 */
class BadMessagesTest {

    /** The reason of each record of the file, in order (null: not dead-lettered), as docs/INTAKE.md lists them. */
    private static final List<String> REASONS = java.util.Arrays.asList(
            "MALFORMED_JSON",
            "MALFORMED_JSON",
            "MALFORMED_JSON",
            "NOT_A_JSON_OBJECT",
            "JSON_TOO_COMPLEX",
            "KEY_NOT_SCALAR",
            "MISSING_KEY",
            "KEY_CONTROL_CHARACTERS",
            "UNPARSABLE_EVENT_TIME",
            "EVENT_TIME_OUT_OF_RANGE",
            "NO_MATCHING_PIPELINE",
            "ENVELOPE_MISMATCH",
            null,
            "record 1: MISSING_KEY");

    @Test
    void everyBadMessageIsDeadLetteredWithItsReasonAndTheBatchDoesNotFail() {
        SQSEvent event = SampleEvents.sqs("sqs-bad-messages.json");
        assertThat(event.getRecords()).hasSize(REASONS.size());
        LocalFanin fanin = LocalFanin.start("bad", SampleEvents.lastSent(event).plusSeconds(1));

        SQSBatchResponse response = new IngestFunction(fanin.runtime).handleRequest(event, TestContexts.invocation("bad-1"));

        assertThat(response.getBatchItemFailures()).as("bad input is never retried").isEmpty();
        long expected = REASONS.stream().filter(r -> r != null).count();
        List<Message> deadLetters = fanin.receive(fanin.resources.queueUrl("InputDeadLetterQueue"), (int) expected,
                Duration.ofSeconds(10), Duration.ofSeconds(1));
        Map<String, Message> byOriginalId = deadLetters.stream().collect(Collectors.toMap(
                m -> m.messageAttributes().get(SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE).stringValue(), m -> m, (a, b) -> {
                    throw new AssertionError("dead-lettered twice: " + a.body());
                }, LinkedHashMap::new));
        assertThat(byOriginalId).hasSize((int) expected);
        for (int i = 0; i < REASONS.size(); i++) {
            SQSEvent.SQSMessage original = event.getRecords().get(i);
            String reason = REASONS.get(i);
            if (reason == null) {
                assertThat(byOriginalId).as("record %d (the S3 test event) is ignored, not dead-lettered", i)
                        .doesNotContainKey(original.getMessageId());
                continue;
            }
            Message dead = byOriginalId.get(original.getMessageId());
            assertThat(dead).as("record %d dead-lettered", i).isNotNull();
            assertThat(dead.body()).as("record %d keeps its body", i).isEqualTo(original.getBody());
            assertThat(dead.messageAttributes().get(SqsDeadLetters.REASON_ATTRIBUTE).stringValue())
                    .as("record %d reason", i).startsWith(reason + ": ");
            assertThat(dead.messageAttributes().get(SqsDeadLetters.REASON_CODE_ATTRIBUTE).stringValue())
                    .as("record %d reason code", i).isEqualTo(reason.replaceFirst("^record \\d+: ", ""));
        }
        for (Message dead : deadLetters) {
            assertThat(dead.messageAttributes()).as("SQS's own facts of the delivery are not the producer's attributes")
                    .doesNotContainKeys("SentTimestamp", "SenderId", "ApproximateReceiveCount", "ApproximateFirstReceiveTimestamp");
        }
        Message first = byOriginalId.get(event.getRecords().get(0).getMessageId());
        assertThat(first.messageAttributes().get("tenant").stringValue()).as("the producer's attribute").isEqualTo("acme");
        assertThat(first.messageAttributes().get("retries").stringValue()).isEqualTo("3");
        assertThat(first.messageAttributes().get(SqsDeadLetters.DROPPED_ATTRIBUTE).stringValue()).as("a binary one, listed").isEqualTo("trace");
        assertThat(fanin.windows("file-uploads", "acme-ingest|uploads/batch-8"))
                .as("the good record of the partly bad S3 notification is still ingested").hasSize(1);
    }

    /**
     * A body too close to the dead-letter queue's 1 MiB to carry fanin's attributes: the send fails, the message is
     * handed back (SQS's redrive moves it after its last delivery, without them), and the log line says why it was
     * to be dead-lettered.
     */
    @Test
    void aDeadLetterThatCannotBeSentIsHandedBackWithItsReasonLogged() {
        SQSEvent event = SampleEvents.sqs("sqs-bad-messages.json");
        SQSEvent.SQSMessage huge = event.getRecords().get(0);
        huge.setBody("x".repeat(1_048_576 - 64));
        event.setRecords(List.of(huge));
        LocalFanin fanin = LocalFanin.start("bad-huge", SampleEvents.lastSent(event).plusSeconds(1));

        LogCapture.Captured<SQSBatchResponse> run = LogCapture.run(
                () -> new IngestFunction(fanin.runtime).handleRequest(event, TestContexts.invocation("bad-huge-1")));

        assertThat(run.result().getBatchItemFailures()).singleElement()
                .satisfies(f -> assertThat(f.getItemIdentifier()).isEqualTo(huge.getMessageId()));
        assertThat(run.at("WARN")).anySatisfy(line -> assertThat(line)
                .startsWith("dead-lettering message " + huge.getMessageId() + " failed")
                .contains("it was to be dead-lettered for PAYLOAD_TOO_LARGE: "));
    }
}
