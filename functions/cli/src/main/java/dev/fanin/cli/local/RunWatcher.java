package dev.fanin.cli.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Reads what really happened: the aggregates on the bus (through the tap queue), the side output, the input
 * dead-letter queue, and the window heads in the table (a scan: fine for a local table of a few windows). Each new
 * observation is passed to the listener once; the current state is kept for the summary and the end condition.
 */
final class RunWatcher {

    /** Receives every observation once, in the order it was read. */
    interface Listener {
        void aggregate(Seen.Aggregate aggregate);

        void sideRecord(Seen.SideRecord record);

        void deadLetter(Seen.DeadLetter letter);

        void windowChanged(Seen.Window before, Seen.Window now);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> KNOWN_STATUSES = Set.of("OPEN", "HELD", "CLAIMED", "CLOSED", "MERGED");

    private final SqsClient sqs;
    private final DynamoDbClient dynamoDb;
    private final String tableName;
    private final String tapQueueUrl;
    private final String sideOutputQueueUrl;
    private final String deadLetterQueueUrl;
    private final Listener listener;

    private final List<Seen.Aggregate> aggregates = new ArrayList<>();
    private final List<Seen.SideRecord> sideRecords = new ArrayList<>();
    private final List<Seen.DeadLetter> deadLetters = new ArrayList<>();
    private final Map<String, Seen.Window> windows = new LinkedHashMap<>();
    private final Map<String, Boolean> aggregateIds = new HashMap<>();

    RunWatcher(SqsClient sqs, DynamoDbClient dynamoDb, String tableName, String tapQueueUrl, String sideOutputQueueUrl,
               String deadLetterQueueUrl, Listener listener) {
        this.sqs = sqs;
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
        this.tapQueueUrl = tapQueueUrl;
        this.sideOutputQueueUrl = sideOutputQueueUrl;
        this.deadLetterQueueUrl = deadLetterQueueUrl;
        this.listener = listener;
    }

    /**
     * One look at everything; returns after reading what is there now. The windows are read before the outputs: a
     * window's commit follows its emission, so every window read as done has its aggregate among the outputs read
     * after it (read the other way round, a commit in between let a run settle without seeing its last aggregate).
     */
    void poll() {
        scanWindows();
        drain(tapQueueUrl, this::onTap);
        drain(sideOutputQueueUrl, this::onSideOutput);
        drain(deadLetterQueueUrl, this::onDeadLetter);
    }

    List<Seen.Aggregate> aggregates() {
        return List.copyOf(aggregates);
    }

    List<Seen.SideRecord> sideRecords() {
        return List.copyOf(sideRecords);
    }

    List<Seen.DeadLetter> deadLetters() {
        return List.copyOf(deadLetters);
    }

    List<Seen.Window> windows() {
        return List.copyOf(windows.values());
    }

    /** Messages waiting or in flight on a queue (approximate, as SQS reports them). */
    int pending(String queueUrl) {
        Map<QueueAttributeName, String> a = sqs.getQueueAttributes(r -> r.queueUrl(queueUrl).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributes();
        return a.values().stream().mapToInt(Integer::parseInt).sum();
    }

    private void drain(String queueUrl, Consumer<Message> handler) {
        while (true) {
            List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(0)
                    .messageAttributeNames("All")).messages();
            if (messages.isEmpty()) {
                return;
            }
            for (Message m : messages) {
                handler.accept(m);
                sqs.deleteMessage(r -> r.queueUrl(queueUrl).receiptHandle(m.receiptHandle()));
            }
        }
    }

    private void onTap(Message m) {
        JsonNode detail = parse(m.body()).path("detail");
        if (!detail.isObject()) {
            return;
        }
        Seen.Aggregate aggregate = Seen.Aggregate.from(detail);
        // A re-emission after a crash carries the same aggregate id: shown once, as a consumer keyed on it would.
        if (aggregateIds.putIfAbsent(aggregate.aggregateId(), Boolean.TRUE) == null) {
            aggregates.add(aggregate);
            listener.aggregate(aggregate);
        }
    }

    private void onSideOutput(Message m) {
        JsonNode body = parse(m.body());
        Seen.SideRecord record = new Seen.SideRecord(body.path("kind").asText(attribute(m, "fanin-kind")),
                body.path("reason").asText(""), body.path("pipeline").asText(attribute(m, "fanin-pipeline")),
                body.path("key").asText(""), body.path("eventId").asText(""));
        sideRecords.add(record);
        listener.sideRecord(record);
    }

    private void onDeadLetter(Message m) {
        String reason = attribute(m, "fanin-reason");
        Seen.DeadLetter letter = new Seen.DeadLetter(reason.isEmpty() ? null : reason, m.body());
        deadLetters.add(letter);
        listener.deadLetter(letter);
    }

    private void scanWindows() {
        Map<String, AttributeValue> startKey = null;
        do {
            Map<String, AttributeValue> from = startKey;
            ScanResponse page = dynamoDb.scan(r -> r.tableName(tableName).exclusiveStartKey(from));
            page.items().forEach(this::onItem);
            startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (startKey != null);
    }

    private void onItem(Map<String, AttributeValue> item) {
        String pk = text(item, "pk");
        String sk = text(item, "sk");
        if (!pk.startsWith("W#") || !sk.endsWith("#H") || !KNOWN_STATUSES.contains(text(item, "st"))) {
            return;
        }
        int pipelineEnd = pk.indexOf('#', 2);
        String pipeline = pk.substring(2, pipelineEnd);
        String key = pk.substring(pipelineEnd + 1);
        String windowId = sk.substring(0, sk.length() - 2);
        JsonNode state = parse(text(item, "state"));
        Instant due = item.containsKey("due") ? Instant.ofEpochMilli(Long.parseLong(item.get("due").n())) : null;
        JsonNode expected = state.path("c").path("e");
        Seen.Window now = new Seen.Window(pipeline, key, windowId, text(item, "st"), due, state.path("n").asLong(),
                state.has("o") ? Instant.ofEpochMilli(state.path("o").asLong()) : null,
                state.has("d") ? Instant.ofEpochMilli(state.path("d").asLong()) : null,
                expected.isNumber() ? expected.asText() : null);
        Seen.Window before = windows.put(now.id(), now);
        if (before == null || !before.status().equals(now.status())) {
            listener.windowChanged(before, now);
        }
    }

    private static String text(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.s() == null ? "" : v.s();
    }

    private static String attribute(Message m, String name) {
        var value = m.messageAttributes().get(name);
        return value == null || value.stringValue() == null ? "" : value.stringValue();
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }
}
