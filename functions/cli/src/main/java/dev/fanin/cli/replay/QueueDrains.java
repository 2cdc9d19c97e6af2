package dev.fanin.cli.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.aws.sqs.SqsDeadLetters;
import dev.fanin.aws.sqs.SqsSideOutput;
import dev.fanin.aws.sqs.SqsWindowTimers;
import dev.fanin.aws.sqs.TimerMessage;
import dev.fanin.core.text.ExactJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Reads what the handlers left in the local queues after an invocation: timers (into the state, to deliver on the
 * simulated clock), emitted aggregates (the bus's tap queue), side-output records and dead letters (into the
 * output files). Each message is copied once: its SQS id is recorded in the state, the state is saved, and only
 * then is the message deleted, so a process killed in between copies nothing twice and loses nothing.
 */
final class QueueDrains {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Short, so that messages received by a process that then died come back quickly to its successor. */
    private static final int VISIBILITY_SECONDS = 1;

    private final SqsClient sqs;
    private final ReplayState state;
    private final OutputFiles outputs;
    private final Runnable commit;

    QueueDrains(SqsClient sqs, ReplayState state, OutputFiles outputs, Runnable commit) {
        this.sqs = sqs;
        this.state = state;
        this.outputs = outputs;
        this.commit = commit;
    }

    /** Drains every queue once; timers are due relative to {@code now}. */
    void drainAll(Instant now) {
        drain(state.resources.queueUrl("TimerQueue"), m -> timer(m, now));
        drain(state.resources.tapQueueUrl(), this::aggregate);
        drain(state.resources.queueUrl("LateEventsQueue"), this::late);
        drain(state.resources.queueUrl("InputDeadLetterQueue"), this::deadLetter);
    }

    /** Drains until no message is left in flight anywhere (after a restart, or at the end), at most {@code seconds}. */
    void settle(Instant now, int seconds) {
        long until = System.nanoTime() + seconds * 1_000_000_000L;
        do {
            drainAll(now);
            if (quiet()) {
                return;
            }
            sleep();
        } while (System.nanoTime() < until);
    }

    private boolean quiet() {
        for (String url : List.of(state.resources.queueUrl("TimerQueue"), state.resources.tapQueueUrl(),
                state.resources.queueUrl("LateEventsQueue"), state.resources.queueUrl("InputDeadLetterQueue"))) {
            Map<QueueAttributeName, String> a = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
            if (!"0".equals(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                    || !"0".equals(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))) {
                return false;
            }
        }
        return true;
    }

    private interface Copy {
        void accept(Message message);
    }

    private void drain(String queueUrl, Copy copy) {
        while (true) {
            List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10)
                    .waitTimeSeconds(0).visibilityTimeout(VISIBILITY_SECONDS)
                    .messageAttributeNames("All").messageSystemAttributeNamesWithStrings("All")).messages();
            if (messages.isEmpty()) {
                return;
            }
            for (Message m : messages) {
                if (state.drained.add(m.messageId())) {
                    copy.accept(m);
                }
            }
            outputs.lengthsInto(state.offsets);
            commit.run();
            List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int i = 0; i < messages.size(); i++) {
                Message m = messages.get(i);
                entries.add(DeleteMessageBatchRequestEntry.builder().id("m" + i).receiptHandle(m.receiptHandle()).build());
            }
            sqs.deleteMessageBatch(r -> r.queueUrl(queueUrl).entries(entries));
        }
    }

    private void timer(Message m, Instant now) {
        long deliverAt;
        try {
            TimerMessage timer = TimerMessage.parse(m.body());
            deliverAt = now.plusSeconds(SqsWindowTimers.delaySeconds(timer.wakeup().dueAt(), now)).toEpochMilli();
        } catch (IllegalArgumentException malformed) {
            deliverAt = now.toEpochMilli(); // the timer function acknowledges and counts it
        }
        state.timers.add(new TimerDelivery(m.messageId(), m.body(), deliverAt, 0));
        state.count("timersArmed", 1);
    }

    private void aggregate(Message m) {
        JsonNode envelope = parse(m.body());
        JsonNode detail = envelope == null ? null : envelope.get("detail");
        outputs.append(OutputFiles.AGGREGATES, detail == null ? m.body() : detail.toString());
    }

    private void late(Message m) {
        JsonNode parsed = parse(m.body());
        ObjectNode record;
        if (parsed == null) {
            record = JSON.createObjectNode();
            record.put("raw", m.body());
        } else {
            record = (ObjectNode) parsed;
        }
        if (!record.hasNonNull("kind")) {
            record.put("kind", attribute(m, SqsSideOutput.KIND_ATTRIBUTE, "?"));
        }
        outputs.append(OutputFiles.LATE, ExactJson.write(record));
    }

    private void deadLetter(Message m) {
        ObjectNode line = JSON.createObjectNode();
        line.put("messageId", attribute(m, SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE, m.messageId()));
        line.put("reasonCode", attribute(m, SqsDeadLetters.REASON_CODE_ATTRIBUTE, "?"));
        line.put("reason", attribute(m, SqsDeadLetters.REASON_ATTRIBUTE, "no fanin-reason attribute"));
        line.put("body", m.body());
        outputs.append(OutputFiles.DEAD_LETTERS, line.toString());
    }

    private static String attribute(Message m, String name, String otherwise) {
        MessageAttributeValue value = m.messageAttributes().get(name);
        return value == null || value.stringValue() == null ? otherwise : value.stringValue();
    }

    private static JsonNode parse(String body) {
        try {
            JsonNode json = ExactJson.read(body);
            return json != null && json.isObject() ? json : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining", e);
        }
    }
}
