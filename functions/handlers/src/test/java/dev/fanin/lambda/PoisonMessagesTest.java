package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.aws.sqs.SqsDeadLetters;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.text.SinkText;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Poison messages in one batch with valid ones, through the ingest function on the local endpoint: the valid ones are
 * counted, each poison one reaches the input dead-letter queue once with its reason (valid text for an SQS
 * attribute, though it quotes characters SQS refuses), and the batch is not failed as a whole.
 */
class PoisonMessagesTest {

    private static final Instant SENT = Instant.parse("2026-11-29T10:00:00Z");

    private static SQSEvent.SQSMessage message(String id, String body) {
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId(id);
        m.setBody(body);
        m.setAttributes(Map.of("SentTimestamp", Long.toString(SENT.toEpochMilli()), "ApproximateReceiveCount", "1"));
        m.setEventSource("aws:sqs");
        return m;
    }

    private static String shard(String jobId, String shard, String rows) {
        return "{\"type\":\"shard.done\",\"jobId\":" + jobId + ",\"runId\":\"r1\",\"shard\":" + shard + ",\"shardCount\":4,\"rows\":"
                + rows + ",\"durationMs\":5,\"finishedAt\":\"2026-11-29T09:59:00Z\"}";
    }

    @Test
    void poisonMessagesAreDeadLetteredWithTheirReasonsAndTheValidOnesCounted() {
        List<SQSEvent.SQSMessage> records = new ArrayList<>(List.of(
                message("good-0", shard("\"etl\"", "0", "10")),
                message("surrogate-key-1", shard("\"etl\\ud800\"", "1", "10")),
                message("huge-exponent", shard("\"etl\"", "1", "1e2147483000")),
                message("good-1", shard("\"etl\"", "1", "12345678901234567890.5")),
                message("surrogate-key-2", shard("\"etl\\udbff\"", "2", "10")),
                message("surrogate-id", shard("\"etl\"", "\"s\\udc00\"", "10")),
                message("non-character-key", shard("\"etl\\uffff\"", "3", "10"))));
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        LocalFanin fanin = LocalFanin.start("poison", SENT.plusSeconds(1));

        SQSBatchResponse response = new IngestFunction(fanin.runtime).handleRequest(event, TestContexts.invocation("poison-1"));

        assertThat(response.getBatchItemFailures()).as("nothing handed back to SQS").isEmpty();
        List<Message> dead = fanin.receive(fanin.resources.queueUrl("InputDeadLetterQueue"), 4, Duration.ofSeconds(10), Duration.ofSeconds(1));
        Map<String, String> reasons = dead.stream().collect(Collectors.toMap(
                m -> m.messageAttributes().get(SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE).stringValue(),
                m -> m.messageAttributes().get(SqsDeadLetters.REASON_ATTRIBUTE).stringValue()));
        assertThat(reasons).containsOnlyKeys("surrogate-key-1", "huge-exponent", "surrogate-key-2", "surrogate-id");
        assertThat(reasons.get("surrogate-key-1")).startsWith("KEY_CONTROL_CHARACTERS: ").contains("\\uD800");
        assertThat(reasons.get("surrogate-key-2")).startsWith("KEY_CONTROL_CHARACTERS: ").contains("\\uDBFF");
        assertThat(reasons.get("huge-exponent")).startsWith("NUMBER_OUT_OF_RANGE: body has the number 1E+2147483000 at $.rows");
        assertThat(reasons.get("surrogate-id")).startsWith("EVENT_ID_CONTROL_CHARACTERS: ");
        assertThat(reasons.values()).allMatch(SinkText::isValid);
        for (Message m : dead) {
            String id = m.messageAttributes().get(SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE).stringValue();
            assertThat(m.body()).as("%s keeps its body", id).isEqualTo(records.stream().filter(r -> r.getMessageId().equals(id))
                    .findFirst().orElseThrow().getBody());
        }
        List<WindowState> windows = fanin.windows("shard-completions", "etl|r1");
        assertThat(windows).singleElement().satisfies(w -> {
            assertThat(w.revisionEvents()).as("the two valid shards").isEqualTo(2);
            assertThat(w.aggregates().toOutput().path("rows").path("value").decimalValue())
                    .isEqualTo(new java.math.BigDecimal("12345678901234567900.5"));
        });
        assertThat(fanin.windows("shard-completions", "etl\uffff|r1")).as("a key may hold U+FFFF").hasSize(1);
    }
}
