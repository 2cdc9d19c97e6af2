package dev.fanin.aws.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.aws.support.MotoServer;
import dev.fanin.core.config.SinkLimits;
import dev.fanin.core.text.SinkText;
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
    void aDeadLetterKeepsBodyAndAttributesAndAddsReasonCodeReasonAndOriginalId() {
        Message message = roundTrip(sqs -> queue -> new SqsDeadLetters(sqs, queue)
                .send("msg-1", "{\"broken\":", Map.of("source", "s3", "trace", "abc"), "MALFORMED_JSON", "MALFORMED_JSON: unexpected end"));
        assertThat(message.body()).isEqualTo("{\"broken\":");
        assertThat(strings(message.messageAttributes())).isEqualTo(Map.of(
                "source", "s3", "trace", "abc",
                "fanin-reason-code", "MALFORMED_JSON",
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
        originals.put("fanin-reason-code", "FORGED");
        Message message = roundTrip(sqs -> queue -> new SqsDeadLetters(sqs, queue).send("msg-2", "body", originals, "NO_PIPELINE", "NO_PIPELINE"));
        Map<String, String> attributes = strings(message.messageAttributes());
        assertThat(attributes).hasSize(10);
        assertThat(attributes).containsEntry("fanin-reason", "NO_PIPELINE").containsEntry("fanin-reason-code", "NO_PIPELINE")
                .containsEntry("fanin-original-message-id", "msg-2");
        assertThat(attributes).containsKeys("attr00", "attr01", "attr02", "attr03", "attr04", "attr05");
        assertThat(attributes).containsEntry("fanin-dropped-attributes", "attr06,attr07,attr08,attr09,attr10,attr11");
    }

    @Test
    void exactlySevenOriginalsStillFitWithoutANote() {
        Map<String, String> originals = new LinkedHashMap<>();
        for (int i = 0; i < 7; i++) {
            originals.put("a" + i, "v");
        }
        assertThat(SqsDeadLetters.attributes("m", 4, originals, "R", "r")).hasSize(10).doesNotContainKey("fanin-dropped-attributes");
        originals.put("a7", "v");
        assertThat(SqsDeadLetters.attributes("m", 4, originals, "R", "r")).hasSize(10)
                .containsEntry("fanin-dropped-attributes", MessageAttributeValue.builder().dataType("String").stringValue("a6,a7").build());
    }

    @Test
    void aReasonQuotingCharactersSqsRefusesIsSentWithThemEscaped() {
        // A key part with an unpaired surrogate, or U+FFFF, quoted in the reason: the raw text made the send fail.
        String reason = "KEY_CONTROL_CHARACTERS: key part $.jobId has an unpaired UTF-16 surrogate: \"etl\ud800\" \uffff\u0001 \ud83d\ude80";
        Message message = roundTrip(sqs -> queue -> new SqsDeadLetters(sqs, queue).send("msg-3", "{\"jobId\":\"etl\\ud800\"}", Map.of(), "KEY_CONTROL_CHARACTERS", reason));

        String sent = message.messageAttributes().get("fanin-reason").stringValue();
        assertThat(sent).isEqualTo("KEY_CONTROL_CHARACTERS: key part $.jobId has an unpaired UTF-16 surrogate: \"etl\\uD800\" \\uFFFF\\u0001 \ud83d\ude80");
        assertThat(SinkText.isValid(sent)).isTrue();
    }

    @Test
    void aLongReasonIsCutAndTheAttributesFitBesideALargeBody() {
        String body = "x".repeat(SinkLimits.FANIN_QUEUE_MESSAGE_BYTES - 12_000);
        Map<String, String> originals = Map.of("big", "y".repeat(5_000), "small", "z");
        Map<String, MessageAttributeValue> attributes = SqsDeadLetters.attributes("msg-4", body.length(), originals, "NO_MATCHING_PIPELINE", "NO_MATCHING_PIPELINE: " + "r".repeat(20_000));

        long total = SqsAttributes.messageBytes(body.length(), attributes);
        assertThat(total).isLessThanOrEqualTo(SinkLimits.FANIN_QUEUE_MESSAGE_BYTES);
        assertThat(attributes.get("fanin-reason").stringValue()).startsWith("NO_MATCHING_PIPELINE: rrr").endsWith("...(20022 bytes)");
        assertThat(strings(attributes)).containsEntry("fanin-dropped-attributes", "big").containsEntry("small", "z");
        Map<String, MessageAttributeValue> small = SqsDeadLetters.attributes("msg-5", 10, Map.of(), "R", "R: " + "r".repeat(20_000));
        assertThat(SinkText.utf8Length(small.get("fanin-reason").stringValue())).isEqualTo(SqsDeadLetters.MAX_REASON_BYTES);
    }

    @Test
    void anEmptyBodyWhichSqsRefusesIsSentAsAMarker() {
        Message message = roundTrip(sqs -> queue -> new SqsDeadLetters(sqs, queue).send("msg-6", "", Map.of(), "MALFORMED_JSON", "MALFORMED_JSON: body is empty"));
        assertThat(message.body()).isEqualTo("(empty body)");
        assertThat(message.messageAttributes().get("fanin-reason").stringValue()).isEqualTo("MALFORMED_JSON: body is empty");
    }

    @Test
    void aDeadLetterWhoseBodyLeavesNoRoomForItsAttributesIsRefusedBeforeTheSend() {
        SqsDeadLetters dead = new SqsDeadLetters(MotoServer.get().sqs(), "https://unused");
        String body = "x".repeat(SinkLimits.FANIN_QUEUE_MESSAGE_BYTES - 64);
        assertThatThrownBy(() -> dead.request("msg-9", body, Map.of(), "PAYLOAD_TOO_LARGE", "PAYLOAD_TOO_LARGE: too large"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("over the dead-letter queue's 1048576");
        assertThat(dead.request("msg-9", body.substring(1_000), Map.of(), "PAYLOAD_TOO_LARGE", "PAYLOAD_TOO_LARGE: too large").messageBody())
                .hasSize(body.length() - 1_000);
    }

    @Test
    void aSideOutputRecordTooLargeForTheQueueIsRefusedBeforeTheSend() {
        SqsSideOutput side = new SqsSideOutput(MotoServer.get().sqs(), "https://unused");
        assertThatThrownBy(() -> side.request("LATE_EVENT", "p", "{\"event\":\"" + "x".repeat(SinkLimits.FANIN_QUEUE_MESSAGE_BYTES) + "\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("over the side-output queue's 1048576");
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
