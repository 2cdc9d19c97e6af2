package dev.fanin.aws.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.MotoServer;
import dev.fanin.aws.support.TestConfigs;
import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.port.AggregateEmitter.Request;
import dev.fanin.core.port.AggregateEmitter.Result;
import dev.fanin.core.window.WindowRef;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

class SqsEmitterTest {

    @Test
    void fifoDeduplicationIdIsTheSha256OfTheAggregateIdAndTheGroupIsThePipelineAndKeyHash() {
        String aggregateId = new WindowRef("uploads", "bucket/prefix#\u00e9 |x", "T000000000001000").aggregateId(2);
        assertThat(SqsEmitter.deduplicationId(aggregateId)).hasSize(64).matches("[0-9a-f]{64}");
        assertThat(SqsEmitter.deduplicationId(aggregateId)).isNotEqualTo(SqsEmitter.deduplicationId(aggregateId.replace("/r2", "/r3")));
        String group = SqsEmitter.messageGroupId("uploads", aggregateId);
        assertThat(group).matches("uploads:[0-9a-f]{16}");
        assertThat(group).as("every window and revision of a key shares the group")
                .isEqualTo(SqsEmitter.messageGroupId("uploads", new WindowRef("uploads", "bucket/prefix#\u00e9 |x", "T000000000002000").aggregateId(0)));
        assertThat(group).isNotEqualTo(SqsEmitter.messageGroupId("uploads", new WindowRef("uploads", "other", "T000000000001000").aggregateId(2)));
        assertThat(AggregateIds.key(aggregateId)).isEqualTo("bucket/prefix#\u00e9 |x");
        assertThat(AggregateIds.key("not an aggregate id")).isNull();
    }

    @Test
    void aFifoQueueDropsTheReEmissionOfTheSameAggregate() {
        try (SqsClient sqs = MotoServer.get().sqs()) {
            String queueUrl = sqs.createQueue(b -> b.queueName("aggregates-" + UUID.randomUUID() + ".fifo")
                    .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
            SqsEmitter emitter = new SqsEmitter(sqs, TestConfigs.config(TestConfigs.pipeline("uploads", new EmitTarget.Sqs("${QUEUE}", true))),
                    Map.of("QUEUE", queueUrl)::get);
            String aggregateId = new WindowRef("uploads", "bucket/prefix", "T000000000001000").aggregateId(0);

            List<Result> first = emitter.emit(List.of(new Request(aggregateId, "uploads", "{\"rev\":0}")));
            List<Result> again = emitter.emit(List.of(new Request(aggregateId, "uploads", "{\"rev\":0}")));
            assertThat(first.get(0).sent()).isTrue();
            assertThat(again.get(0).sent()).as("SQS accepts a duplicate send and drops it").isTrue();

            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
            assertThat(messages).hasSize(1);
            assertThat(messages.get(0).body()).isEqualTo("{\"rev\":0}");
            assertThat(messages.get(0).attributes().get(MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID))
                    .isEqualTo(SqsEmitter.deduplicationId(aggregateId));
            assertThat(messages.get(0).attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID))
                    .isEqualTo(SqsEmitter.messageGroupId("uploads", aggregateId));
        }
    }

    /**
     * The documented reference form, {@code ${FANIN_EMIT_QUEUE_URL}}, with a FIFO queue: the loader cannot tell a
     * reference is FIFO (it defaulted fifo to false), so every send lacked a group id, SQS refused it for good, and the
     * window stayed claimed. The resolved URL decides; fifo: true with a standard queue is refused, naming the pipeline.
     */
    @Test
    void aReferenceThatResolvesToAFifoQueueSendsWithAGroupIdAndToAStandardOneWithFifoIsRefused() {
        try (SqsClient sqs = MotoServer.get().sqs()) {
            String fifoUrl = sqs.createQueue(b -> b.queueName("out-" + UUID.randomUUID() + ".fifo")
                    .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
            var config = TestConfigs.config(TestConfigs.pipeline("jobs", new EmitTarget.Sqs("${FANIN_EMIT_QUEUE_URL}", false)));
            SqsEmitter emitter = new SqsEmitter(sqs, config, Map.of("FANIN_EMIT_QUEUE_URL", fifoUrl)::get);
            String aggregateId = new WindowRef("jobs", "j1", "T000000000001000").aggregateId(0);

            Result sent = emitter.emit(List.of(new Request(aggregateId, "jobs", "{}"))).get(0);

            assertThat(sent.sent()).as(sent.error()).isTrue();
            assertThat(SqsEmitter.resolveTargets(config, Map.of("FANIN_EMIT_QUEUE_URL", fifoUrl)::get).get("jobs").fifo()).isTrue();
            var fifoConfig = TestConfigs.config(TestConfigs.pipeline("jobs", new EmitTarget.Sqs("${FANIN_EMIT_QUEUE_URL}", true)));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> SqsEmitter.resolveTargets(fifoConfig,
                    Map.of("FANIN_EMIT_QUEUE_URL", "https://sqs.us-east-1.amazonaws.com/1/out")::get))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("pipeline 'jobs'").hasMessageContaining("fifo is true");
        }
    }

    @Test
    void aStandardQueueGetsEveryAggregateInBatchesOfTen() {
        try (SqsClient sqs = MotoServer.get().sqs()) {
            String queueUrl = sqs.createQueue(b -> b.queueName("aggregates-" + UUID.randomUUID())).queueUrl();
            SqsEmitter emitter = new SqsEmitter(sqs, TestConfigs.config(TestConfigs.pipeline("jobs", new EmitTarget.Sqs(queueUrl, false))), name -> null);
            List<Request> requests = IntStream.range(0, 13).mapToObj(i -> new Request("agg-" + i, "jobs", "{\"i\":" + i + "}")).toList();
            List<Result> results = emitter.emit(requests);
            assertThat(results).extracting(Result::aggregateId).containsExactlyElementsOf(requests.stream().map(Request::aggregateId).toList());
            assertThat(results).allMatch(Result::sent);
            int received = 0;
            for (int i = 0; i < 5 && received < 13; i++) {
                received += sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10)).messages().size();
            }
            assertThat(received).isEqualTo(13);
        }
    }
}
