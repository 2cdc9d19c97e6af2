package dev.fanin.lambda;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.DeleteMessageRequest;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * The whole path on the local endpoint, the way the Lambda service drives it: the raw shard events are sent to the
 * template's input queue, received in batches of up to 10 and handed to the ingest function as an {@link SQSEvent};
 * the messages it does not report as failed are deleted. The run closes by expected count and one aggregate reaches
 * the bus, valid against {@code schemas/aggregate-v1.json}. Redelivering the same batch changes nothing.
 */
class EndToEndTest {


    @Test
    void rawShardsThroughTheInputQueueFireOneSchemaValidAggregateAndARedeliveryFiresNothing() {
        SQSEvent sample = SampleEvents.sqs("sqs-raw-shards.json");
        LocalFanin fanin = LocalFanin.start("e2e", SampleEvents.lastSent(sample).plusSeconds(1));
        String input = fanin.resources.queueUrl("InputQueue");
        for (SQSEvent.SQSMessage m : sample.getRecords()) {
            fanin.sqs().sendMessage(SendMessageRequest.builder().queueUrl(input).messageBody(m.getBody()).build());
        }
        IngestFunction ingest = new IngestFunction(fanin.runtime);

        SQSEvent delivered = sentAsInTheSample(poll(fanin, input, sample.getRecords().size()), sample);
        SQSBatchResponse response = ingest.handleRequest(delivered, TestContexts.invocation("e2e-1"));
        deleteAcknowledged(fanin, input, delivered, response);

        assertThat(response.getBatchItemFailures()).isEmpty();
        List<JsonNode> aggregates = fanin.aggregates(1, Duration.ofSeconds(10), Duration.ofSeconds(2));
        assertThat(aggregates).hasSize(1);
        JsonNode aggregate = aggregates.get(0);
        assertThat(AggregateSchema.problems(aggregate)).as(aggregate.toString()).isEmpty();
        assertThat(aggregate.path("closeReason").asText()).isEqualTo("EXPECTED_COMPLETE");
        assertThat(aggregate.path("aggregations").path("shards").asInt()).isEqualTo(4);

        SQSBatchResponse again = ingest.handleRequest(redelivery(delivered), TestContexts.invocation("e2e-2"));

        assertThat(again.getBatchItemFailures()).isEmpty();
        assertThat(fanin.aggregates(0, Duration.ZERO, Duration.ofSeconds(2))).as("a redelivered batch fires nothing").isEmpty();
        assertThat(fanin.windows("shard-completions", "nightly-etl|2026-11-29")).singleElement()
                .satisfies(w -> assertThat(w.committedRevision()).isZero());
    }

    /** What the SQS event source hands the function: up to 10 messages with their system attributes. */
    private static SQSEvent poll(LocalFanin fanin, String queueUrl, int expected) {
        Map<String, Message> received = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (received.size() < expected && System.nanoTime() < deadline) {
            fanin.sqs().receiveMessage(ReceiveMessageRequest.builder()
                    .queueUrl(queueUrl)
                    .maxNumberOfMessages(10)
                    .waitTimeSeconds(1)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                    .build()).messages().forEach(m -> received.put(m.messageId(), m));
        }
        assertThat(received).hasSize(expected);
        SQSEvent event = new SQSEvent();
        event.setRecords(received.values().stream().map(EndToEndTest::record).toList());
        return event;
    }

    private static SQSEvent.SQSMessage record(Message m) {
        SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
        record.setMessageId(m.messageId());
        record.setReceiptHandle(m.receiptHandle());
        record.setBody(m.body());
        record.setMd5OfBody(m.md5OfBody());
        record.setEventSource("aws:sqs");
        record.setAttributes(m.attributesAsStrings());
        return record;
    }

    /**
     * The delivered messages with the sent time the sample gives each body: the runtime's clock stands at the sample's
     * time, and the endpoint stamps today's, so without this intake would measure the sample's fixed event times
     * against today and refuse them once they are past {@code maxPast}.
     */
    private static SQSEvent sentAsInTheSample(SQSEvent delivered, SQSEvent sample) {
        Map<String, String> sentByBody = sample.getRecords().stream()
                .collect(Collectors.toMap(SQSEvent.SQSMessage::getBody, m -> m.getAttributes().get("SentTimestamp"), (a, b) -> a));
        delivered.getRecords().forEach(m -> {
            Map<String, String> attributes = new HashMap<>(m.getAttributes());
            attributes.put("SentTimestamp", sentByBody.get(m.getBody()));
            m.setAttributes(attributes);
        });
        return delivered;
    }

    private static SQSEvent redelivery(SQSEvent delivered) {
        SQSEvent event = new SQSEvent();
        event.setRecords(delivered.getRecords().stream().map(m -> {
            SQSEvent.SQSMessage copy = record(Message.builder().messageId(m.getMessageId()).receiptHandle(m.getReceiptHandle())
                    .body(m.getBody()).md5OfBody(m.getMd5OfBody()).build());
            Map<String, String> attributes = new HashMap<>(m.getAttributes());
            attributes.put("ApproximateReceiveCount", "2");
            copy.setAttributes(attributes);
            return copy;
        }).toList());
        return event;
    }

    private static void deleteAcknowledged(LocalFanin fanin, String queueUrl, SQSEvent event, SQSBatchResponse response) {
        Set<String> failed = response.getBatchItemFailures().stream()
                .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).collect(Collectors.toSet());
        event.getRecords().stream().filter(m -> !failed.contains(m.getMessageId())).forEach(m -> fanin.sqs().deleteMessage(
                DeleteMessageRequest.builder().queueUrl(queueUrl).receiptHandle(m.getReceiptHandle()).build()));
    }
}
