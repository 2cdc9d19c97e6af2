package dev.fanin.aws.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.MotoServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

class SqsDeadLettersAndSideOutputTest {

    @Test
    void aDeadLetterKeepsBodyAndAttributesAndAddsReasonAndOriginalId() {
        Message message = roundTrip(sqs -> queue -> new SqsDeadLetters(sqs, queue)
                .send("msg-1", "{\"broken\":", Map.of("source", "s3", "trace", "abc"), "MALFORMED_JSON: unexpected end"));
        assertThat(message.body()).isEqualTo("{\"broken\":");
        assertThat(strings(message.messageAttributes())).isEqualTo(Map.of(
                "source", "s3", "trace", "abc",
                "fanin-reason", "MALFORMED_JSON: unexpected end",
                "fanin-original-message-id", "msg-1"));
    }

    @Test
    void aDeadLetterWithTooManyAttributesKeepsOursAndNamesWhatItDropped() {
        Map<String, String> originals = new LinkedHashMap<>();
        for (int i = 0; i < 12; i++) {
            originals.put(String.format("attr%02d", i), "v" + i);
        }
        originals.put("fanin-reason", "forged");
        Message message = roundTrip(sqs -> queue -> new SqsDeadLetters(sqs, queue).send("msg-2", "body", originals, "NO_PIPELINE"));
        Map<String, String> attributes = strings(message.messageAttributes());
        assertThat(attributes).hasSize(10);
        assertThat(attributes).containsEntry("fanin-reason", "NO_PIPELINE").containsEntry("fanin-original-message-id", "msg-2");
        assertThat(attributes).containsKeys("attr00", "attr01", "attr02", "attr03", "attr04", "attr05", "attr06");
        assertThat(attributes).containsEntry("fanin-dropped-attributes", "attr07,attr08,attr09,attr10,attr11");
    }

    @Test
    void exactlyEightOriginalsStillFitWithoutANote() {
        Map<String, String> originals = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            originals.put("a" + i, "v");
        }
        assertThat(SqsDeadLetters.attributes("m", originals, "r")).hasSize(10).doesNotContainKey("fanin-dropped-attributes");
        originals.put("a8", "v");
        assertThat(SqsDeadLetters.attributes("m", originals, "r")).hasSize(10)
                .containsEntry("fanin-dropped-attributes", MessageAttributeValue.builder().dataType("String").stringValue("a7,a8").build());
    }

    @Test
    void sideOutputRecordsCarryKindAndPipeline() {
        Message message = roundTrip(sqs -> queue -> new SqsSideOutput(sqs, queue).send("LATE_EVENT", "alerts", "{\"eventId\":\"e1\"}"));
        assertThat(message.body()).isEqualTo("{\"eventId\":\"e1\"}");
        assertThat(strings(message.messageAttributes())).isEqualTo(Map.of("fanin-kind", "LATE_EVENT", "fanin-pipeline", "alerts"));
    }

    private interface Sender {
        java.util.function.Consumer<String> to(SqsClient sqs);
    }

    private static Message roundTrip(Sender sender) {
        try (SqsClient sqs = MotoServer.get().sqs()) {
            String queueUrl = sqs.createQueue(b -> b.queueName("out-" + UUID.randomUUID())).queueUrl();
            sender.to(sqs).accept(queueUrl);
            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)
                    .messageAttributeNames("All")).messages();
            assertThat(messages).hasSize(1);
            return messages.get(0);
        }
    }

    private static Map<String, String> strings(Map<String, MessageAttributeValue> attributes) {
        return attributes.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().stringValue()));
    }
}
