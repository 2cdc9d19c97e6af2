package dev.fanin.aws.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.MotoServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * A redrive sends only what the input queue takes: at most SQS's 10 message attributes, and the body with every
 * attribute (the added {@code fanin-original-message-id} included) within the queue's {@code MaximumMessageSize}. A
 * message that would break either stays a dead letter, with why; one with a binary attribute is redriven. (A review
 * found the first two sent and refused by SQS, reported without a reason, and a binary attribute ending the run on a
 * NullPointerException.) Moto enforces neither limit, so what the redrive sends is recorded and checked here.
 */
class RedriveSinkLimitsTest {

    private final SqsClient sqs = MotoServer.get().sqs();
    private final String dead = queue("dead-", 1_048_576);
    private final String input = queue("input-", 262_144);
    private final List<SendMessageBatchRequestEntry> sentToInput = new ArrayList<>();

    @Test
    void aMessageWithTenAttributesOfItsOwnStaysADeadLetterAndSaysWhy() {
        // What SQS's own redrive policy moves (MaxReceiveCount reached): the producer's message as sent, 10 attributes.
        Map<String, MessageAttributeValue> ten = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            ten.put("attr" + i, MessageAttributeValue.builder().dataType("String").stringValue("v" + i).build());
        }
        sqs.sendMessage(b -> b.queueUrl(dead).messageBody("{\"k\":\"a\"}").messageAttributes(ten));

        SqsDeadLetterQueue.Redriven redriven = recordingQueue().redrive(input, l -> true, 10);

        assertThat(sentToInput).isEmpty();
        assertThat(redriven.moved()).isEmpty();
        assertThat(redriven.kept()).singleElement().satisfies(k -> assertThat(k.why())
                .contains("10 message attributes of its own", "fanin-original-message-id", "at most 10"));
        assertThat(new SqsDeadLetterQueue(sqs, dead).read(10)).as("still a dead letter").hasSize(1);
    }

    @Test
    void aBodyAsLargeAsTheInputQueueTakesStaysADeadLetterAndSaysWhy() {
        // A 262,144-byte body is a valid input message; intake refuses it and fanin dead-letters it into the 1 MiB queue.
        String body = "{\"pad\":\"" + "x".repeat(262_144 - 10) + "\"}";
        assertThat(body.getBytes(StandardCharsets.UTF_8).length).isEqualTo(262_144);
        new SqsDeadLetters(sqs, dead).send("m-1", body, Map.of(), "NO_MATCHING_PIPELINE", "NO_MATCHING_PIPELINE: no pipeline matched");

        SqsDeadLetterQueue.Redriven redriven = recordingQueue().redrive(input, l -> true, 10);

        assertThat(sentToInput).isEmpty();
        assertThat(redriven.kept()).singleElement().satisfies(k -> assertThat(k.why())
                .contains("bytes", "over the input queue's MaximumMessageSize of 262144"));
        assertThat(new SqsDeadLetterQueue(sqs, dead).read(10)).as("still a dead letter").hasSize(1);
    }

    @Test
    void aMessageWithABinaryAttributeIsRedriven() {
        sqs.sendMessage(b -> b.queueUrl(dead).messageBody("{\"k\":\"a\"}").messageAttributes(Map.of("trace",
                MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromUtf8String("abc")).build())));

        SqsDeadLetterQueue.Redriven redriven = recordingQueue().redrive(input, l -> true, 10);

        assertThat(redriven.kept()).isEmpty();
        assertThat(redriven.moved()).hasSize(1);
        assertThat(sentToInput).singleElement().satisfies(e -> assertThat(e.messageAttributes()).containsKey("trace"));
    }

    private String queue(String prefix, int maxBytes) {
        return sqs.createQueue(b -> b.queueName(prefix + UUID.randomUUID())
                .attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, Integer.toString(maxBytes)))).queueUrl();
    }

    private SqsDeadLetterQueue recordingQueue() {
        ExecutionInterceptor record = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                if (context.request() instanceof SendMessageBatchRequest send && send.queueUrl().equals(input)) {
                    sentToInput.addAll(send.entries());
                }
            }
        };
        return new SqsDeadLetterQueue(MotoServer.get().sqs(record), dead);
    }
}
