package dev.fanin.aws.sqs;

import dev.fanin.aws.Batches;
import dev.fanin.core.config.SinkLimits;
import dev.fanin.core.text.SinkText;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * The input dead-letter queue read and redriven by an operator ({@code fanin dead-letters}). Reading takes messages
 * out of sight for {@link #HOLD} and gives them back at once; redriving sends each selected message to the input
 * queue (its body, the producer's attributes, and of fanin's own only {@code fanin-original-message-id}, which intake
 * takes as the message's id) and deletes it from this queue only after the send succeeded. So a message is never
 * lost: a failure between the two leaves it in both queues, and fanin's dedupe by event id counts it once, also where
 * the event id is the message id.
 */
public final class SqsDeadLetterQueue {

    /** The most message attributes SQS takes on a message. */
    static final int MAX_ATTRIBUTES = 10;

    /** How long a message read here stays out of sight of other readers (given back sooner when done). */
    static final Duration HOLD = Duration.ofSeconds(60);

    /**
     * One dead letter.
     *
     * @param reasonCode        {@code fanin-reason-code}: the reason's codes, joined by {@code ,}; empty when SQS's own
     *                          redrive moved it (MaxReceiveCount reached)
     * @param reason            {@code fanin-reason}; empty when SQS's own redrive moved it
     * @param originalMessageId {@code fanin-original-message-id}, or the message's own id
     * @param attributes        the producer's message attributes (fanin's own removed)
     */
    public record Letter(String messageId, String reasonCode, String reason, String originalMessageId, Instant sentAt,
                         int receiveCount, String body, Map<String, String> attributes) {

        /** Whether the reason, or one of its codes, starts with {@code prefix}. */
        public boolean hasReason(String prefix) {
            return reason.startsWith(prefix) || java.util.Arrays.stream(reasonCode.split(",")).anyMatch(c -> !c.isEmpty() && c.startsWith(prefix));
        }
    }

    /** A message not redriven, and why: it stays in the dead-letter queue. */
    public record Kept(String messageId, String why) { }

    /** @param kept the messages selected and not redriven */
    public record Redriven(List<Letter> moved, List<Kept> kept) { }

    private final SqsClient sqs;
    private final String queueUrl;
    private final Duration hold;

    public SqsDeadLetterQueue(SqsClient sqs, String queueUrl) {
        this(sqs, queueUrl, HOLD);
    }

    /** @param hold how long a message read stays out of sight of other readers ({@link #HOLD}; tests shorten it) */
    SqsDeadLetterQueue(SqsClient sqs, String queueUrl, Duration hold) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.hold = hold;
    }

    /** Up to {@code max} dead letters, each once, given back to the queue before returning. */
    public List<Letter> read(int max) {
        Map<String, Message> held = new LinkedHashMap<>();
        try {
            boolean more = true;
            while (more && held.size() < max) {
                more = receiveNew(Math.min(10, max - held.size()), held::put, held::containsKey);
            }
            return held.values().stream().map(SqsDeadLetterQueue::letter).toList();
        } finally {
            release(List.copyOf(held.values()));
        }
    }

    /**
     * Moves the dead letters {@code selected} accepts (at most {@code max}) to {@code inputQueueUrl}, ten read at a
     * time: send first, delete after, before reading on, so a message is moved while its receipt is fresh; the others
     * are given back untouched at the end. The reading ends when the queue gives nothing it has not given before (a
     * queue too large to read within the hold comes round again), so it ends on any queue.
     */
    public Redriven redrive(String inputQueueUrl, Predicate<Letter> selected, int max) {
        Map<String, Message> others = new LinkedHashMap<>();
        List<Letter> moved = new ArrayList<>();
        List<Kept> kept = new ArrayList<>();
        long inputMaxBytes = maxMessageBytes(inputQueueUrl);
        try {
            boolean more = true;
            while (more && moved.size() + kept.size() < max) {
                List<Message> chosen = new ArrayList<>();
                more = receiveNew(10, (id, m) -> {
                    if (takes(m, chosen.size(), selected, others, moved, kept, max)) {
                        chosen.add(m);
                    } else {
                        others.put(id, m);
                    }
                }, others::containsKey);
                move(inputQueueUrl, inputMaxBytes, chosen, moved, kept, others);
            }
        } finally {
            release(List.copyOf(others.values()));
        }
        return new Redriven(moved, kept);
    }

    /** The queue's {@code MaximumMessageSize}; SQS's long-standing 256 KiB when it cannot be read. */
    private long maxMessageBytes(String url) {
        try {
            String bytes = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.MAXIMUM_MESSAGE_SIZE))
                    .attributes().get(QueueAttributeName.MAXIMUM_MESSAGE_SIZE);
            return bytes == null ? SinkLimits.SQS_MESSAGE_BYTES : Long.parseLong(bytes);
        } catch (SdkException | NumberFormatException e) {
            return SinkLimits.SQS_MESSAGE_BYTES;
        }
    }

    /**
     * Whether this run moves {@code m}: selected, within {@code max}, and neither left in place before (a message
     * left, or whose send failed, comes round again) nor a copy of one it moved (dead-lettered again while the run
     * reads, when the functions still refuse it: moved once a run, not again and again up to {@code max}).
     */
    private static boolean takes(Message m, int chosen, Predicate<Letter> selected, Map<String, Message> others, List<Letter> moved,
                                 List<Kept> kept, int max) {
        if (others.containsKey(m.messageId()) || moved.size() + kept.size() + chosen >= max) {
            return false;
        }
        Letter letter = letter(m);
        return moved.stream().noneMatch(l -> l.originalMessageId().equals(letter.originalMessageId())) && selected.test(letter);
    }

    /**
     * Sends {@code chosen}, batched within SQS's limits, and deletes what was sent; a message the input queue would
     * refuse is not sent, and one it refused is not deleted: each stays in {@code others}, and in {@code kept} with why.
     */
    private void move(String inputQueueUrl, long inputMaxBytes, List<Message> chosen, List<Letter> moved, List<Kept> kept,
                      Map<String, Message> others) {
        List<Message> sendable = new ArrayList<>();
        for (Message m : chosen) {
            String why = refusal(m, inputMaxBytes);
            if (why == null) {
                sendable.add(m);
            } else {
                kept.add(new Kept(m.messageId(), why));
                others.put(m.messageId(), m);
            }
        }
        List<List<Message>> batches = Batches.of(sendable, SqsEmitter.MAX_ENTRIES_PER_CALL, SqsEmitter.MAX_CALL_BYTES,
                SqsDeadLetterQueue::redrivenBytes);
        for (List<Message> batch : batches) {
            Map<String, String> refused = send(inputQueueUrl, batch);
            List<Message> toDelete = batch.stream().filter(m -> !refused.containsKey(m.messageId())).toList();
            delete(toDelete);
            toDelete.forEach(m -> moved.add(letter(m)));
            batch.stream().filter(m -> refused.containsKey(m.messageId())).forEach(m -> {
                kept.add(new Kept(m.messageId(), refused.get(m.messageId())));
                others.put(m.messageId(), m);
            });
        }
    }

    /**
     * Why the input queue would refuse {@code m} redriven (null: it would take it): one more attribute than SQS allows,
     * or more bytes than the queue's {@code MaximumMessageSize}, once {@code fanin-original-message-id} is added.
     */
    private static String refusal(Message m, long inputMaxBytes) {
        int attributes = redrivenAttributes(m).size();
        if (attributes > MAX_ATTRIBUTES) {
            return "it has " + (attributes - 1) + " message attributes of its own, and redriven it needs one more ("
                    + SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE + ", the id intake takes it by): SQS takes at most " + MAX_ATTRIBUTES;
        }
        long bytes = redrivenBytes(m);
        if (bytes > inputMaxBytes) {
            return "redriven it is " + bytes + " bytes (its body and message attributes, with " + SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE
                    + "), over the input queue's MaximumMessageSize of " + inputMaxBytes;
        }
        return null;
    }

    private static long redrivenBytes(Message m) {
        return SqsAttributes.messageBytes(SinkText.utf8Length(m.body()), redrivenAttributes(m));
    }

    /** Sends {@code batch}; returns the messages not sent, each with the input queue's reason. */
    private Map<String, String> send(String inputQueueUrl, List<Message> batch) {
        List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Message m = batch.get(i);
            entries.add(SendMessageBatchRequestEntry.builder().id(Integer.toString(i)).messageBody(m.body())
                    .messageAttributes(redrivenAttributes(m)).build());
        }
        SendMessageBatchResponse response = sqs.sendMessageBatch(r -> r.queueUrl(inputQueueUrl).entries(entries));
        Map<String, String> refused = new LinkedHashMap<>();
        batch.forEach(m -> refused.put(m.messageId(), "the input queue gave no answer for it"));
        response.successful().forEach(ok -> refused.remove(batch.get(Integer.parseInt(ok.id())).messageId()));
        response.failed().forEach(no -> refused.put(batch.get(Integer.parseInt(no.id())).messageId(),
                "the input queue refused it: " + no.code() + ": " + no.message()));
        return refused;
    }

    /** The producer's attributes and the original message id, which intake takes as the message's id. */
    private static Map<String, MessageAttributeValue> redrivenAttributes(Message m) {
        Map<String, MessageAttributeValue> attributes = producerAttributes(m);
        attributes.put(SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE, SqsAttributes.string(attribute(m, SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE, m.messageId())));
        return attributes;
    }

    private void delete(List<Message> messages) {
        if (messages.isEmpty()) {
            return;
        }
        List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            entries.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(i)).receiptHandle(messages.get(i).receiptHandle()).build());
        }
        DeleteMessageBatchResponse response = sqs.deleteMessageBatch(r -> r.queueUrl(queueUrl).entries(entries));
        if (!response.failed().isEmpty()) {
            // Sent but still here: redriven again later, counted once by the event-id dedupe. Never a loss.
            throw new IllegalStateException(response.failed().size() + " redriven messages could not be deleted from the dead-letter "
                    + "queue (they are on the input queue too; fanin's dedupe counts them once): " + response.failed().get(0).message());
        }
    }

    /**
     * One receive of up to {@code wanted} messages, each held out of sight for the hold; {@code take} gets every one
     * (a message seen before comes with its newest receipt, the only one a delete or release still honours).
     *
     * @return whether it brought a message {@code seen} did not know: false when the queue is read through
     */
    private boolean receiveNew(int wanted, BiConsumer<String, Message> take, Predicate<String> seen) {
        List<Message> got = sqs.receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(wanted).waitTimeSeconds(1)
                .visibilityTimeout((int) hold.toSeconds()).messageAttributeNames("All")
                .messageSystemAttributeNames(MessageSystemAttributeName.SENT_TIMESTAMP,
                        MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)).messages();
        boolean fresh = false;
        for (Message m : got) {
            fresh |= !seen.test(m.messageId());
            take.accept(m.messageId(), m);
        }
        return fresh;
    }

    private void release(List<Message> messages) {
        for (int i = 0; i < messages.size(); i += 10) {
            List<Message> batch = messages.subList(i, Math.min(i + 10, messages.size()));
            List<ChangeMessageVisibilityBatchRequestEntry> entries = new ArrayList<>();
            for (int j = 0; j < batch.size(); j++) {
                entries.add(ChangeMessageVisibilityBatchRequestEntry.builder().id(Integer.toString(j))
                        .receiptHandle(batch.get(j).receiptHandle()).visibilityTimeout(0).build());
            }
            sqs.changeMessageVisibilityBatch(r -> r.queueUrl(queueUrl).entries(entries));
        }
    }

    private static Map<String, MessageAttributeValue> producerAttributes(Message m) {
        Map<String, MessageAttributeValue> kept = new LinkedHashMap<>();
        m.messageAttributes().forEach((name, value) -> {
            if (!SqsDeadLetters.isOwn(name)) {
                kept.put(name, value);
            }
        });
        return kept;
    }

    private static Letter letter(Message m) {
        Map<String, String> attributes = new LinkedHashMap<>();
        m.messageAttributes().forEach((name, value) -> {
            if (!SqsDeadLetters.isOwn(name) && value.stringValue() != null) {
                attributes.put(name, value.stringValue());
            }
        });
        String sent = m.attributes().get(MessageSystemAttributeName.SENT_TIMESTAMP);
        String received = m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT);
        return new Letter(m.messageId(), attribute(m, SqsDeadLetters.REASON_CODE_ATTRIBUTE, ""),
                attribute(m, SqsDeadLetters.REASON_ATTRIBUTE, ""),
                attribute(m, SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE, m.messageId()),
                sent == null ? null : Instant.ofEpochMilli(Long.parseLong(sent)), received == null ? 0 : Integer.parseInt(received),
                m.body(), attributes);
    }

    private static String attribute(Message m, String name, String fallback) {
        MessageAttributeValue value = m.messageAttributes().get(name);
        return value == null || value.stringValue() == null ? fallback : value.stringValue();
    }
}
