package dev.fanin.aws.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.MotoServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;

/**
 * The operator's dead-letter queue on the local endpoint: reading and redriving end on a queue that comes round again
 * before it is read through (its hold expired: here at once), and dead letters as large as the input queue takes are
 * redriven within SQS's batch limit.
 */
class SqsDeadLetterQueueTest {

    private final SqsClient sqs = MotoServer.get().sqs();
    private final String dead = queue("dead-");
    private final String input = queue("input-");

    private String queue(String prefix) {
        return sqs.createQueue(b -> b.queueName(prefix + UUID.randomUUID()).attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1048576")))
                .queueUrl();
    }

    private void deadLetters(int count, int bodyBytes) {
        IntStream.range(0, count).forEach(i -> new SqsDeadLetters(sqs, dead).send("m-" + i, ("{\"n\":" + i + ",\"pad\":\"")
                + "x".repeat(Math.max(0, bodyBytes - 20)) + "\"}", Map.of(), "NO_MATCHING_PIPELINE", "NO_MATCHING_PIPELINE: n " + i));
    }

    @Test
    void aQueueThatComesRoundBeforeItIsReadThroughStillEndsTheReadingAndTheRedrive() {
        deadLetters(25, 50);
        SqsDeadLetterQueue expiring = new SqsDeadLetterQueue(sqs, dead, Duration.ZERO);

        assertThat(expiring.read(1000)).extracting(SqsDeadLetterQueue.Letter::originalMessageId).doesNotHaveDuplicates().isNotEmpty();
        assertThat(expiring.redrive(input, l -> false, 1000).moved()).isEmpty();
        SqsDeadLetterQueue.Redriven all = expiring.redrive(input, l -> true, 1000);

        assertThat(all.moved()).extracting(SqsDeadLetterQueue.Letter::originalMessageId).doesNotHaveDuplicates().hasSize(25);
        assertThat(received(input)).hasSize(25);
    }

    @Test
    void aSelectionIsMovedWhereverItIsInTheQueueAndTheRestStays() {
        deadLetters(25, 50);

        SqsDeadLetterQueue.Redriven redriven = new SqsDeadLetterQueue(sqs, dead)
                .redrive(input, l -> l.body().contains("\"n\":3,") || l.body().contains("\"n\":17,"), 1000);

        assertThat(redriven.kept()).isEmpty();
        assertThat(redriven.moved()).extracting(SqsDeadLetterQueue.Letter::originalMessageId).containsExactlyInAnyOrder("m-3", "m-17");
        assertThat(received(input)).extracting(m -> m.messageAttributes().get(SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE).stringValue())
                .containsExactlyInAnyOrder("m-3", "m-17");
        assertThat(new SqsDeadLetterQueue(sqs, dead).read(1000)).hasSize(23);
    }

    @Test
    void deadLettersAsLargeAsTheInputQueueTakesAreRedrivenWithinTheBatchLimit() {
        deadLetters(10, 200_000);

        SqsDeadLetterQueue.Redriven redriven = new SqsDeadLetterQueue(sqs, dead).redrive(input, l -> true, 1000);

        assertThat(redriven.kept()).isEmpty();
        assertThat(redriven.moved()).hasSize(10);
        assertThat(received(input)).hasSize(10);
        assertThat(new SqsDeadLetterQueue(sqs, dead).read(1000)).isEmpty();
    }

    @Test
    void aLetterDeadLetteredAgainWhileTheRunReadsIsNotMovedAgain() {
        deadLetters(3, 50);
        // The functions still refuse what is redriven (the fix is not deployed yet): each comes back at once.
        ExecutionInterceptor refusedAgain = new ExecutionInterceptor() {
            @Override
            public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
                if (context.request() instanceof SendMessageBatchRequest send && send.queueUrl().equals(input)) {
                    send.entries().forEach(e -> new SqsDeadLetters(sqs, dead).send(e.messageAttributes().get(SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE)
                            .stringValue(), e.messageBody(), Map.of(), "NO_MATCHING_PIPELINE", "NO_MATCHING_PIPELINE: still"));
                }
            }
        };

        SqsDeadLetterQueue.Redriven redriven = new SqsDeadLetterQueue(MotoServer.get().sqs(refusedAgain), dead).redrive(input, l -> true, 50);

        assertThat(redriven.moved()).extracting(SqsDeadLetterQueue.Letter::originalMessageId).containsExactlyInAnyOrder("m-0", "m-1", "m-2");
        assertThat(new SqsDeadLetterQueue(sqs, dead).read(1000)).as("the copies wait for the next run").hasSize(3);
    }

    private List<Message> received(String queueUrl) {
        List<Message> all = new ArrayList<>();
        List<Message> got;
        do {
            got = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1).visibilityTimeout(60)
                    .messageAttributeNames("All")).messages();
            all.addAll(got);
        } while (!got.isEmpty());
        return all;
    }
}
