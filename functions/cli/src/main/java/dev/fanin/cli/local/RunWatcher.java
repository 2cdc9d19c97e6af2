package dev.fanin.cli.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.aws.dynamodb.WindowTableReader;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoredWindow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Reads what really happened: the aggregates on the bus (through the tap queue), the side output, the input
 * dead-letter queue, and the window heads in the table (read through the adapter's {@link WindowTableReader}, decoded
 * by the core: a whole-table scan, fine for a local table of a few windows). Each new
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

    private final SqsClient sqs;
    private final WindowTableReader table;
    private final Function<StoredWindow, WindowState> decode;
    private final String tapQueueUrl;
    private final String sideOutputQueueUrl;
    private final String deadLetterQueueUrl;
    private final Listener listener;

    private final List<Seen.Aggregate> aggregates = new ArrayList<>();
    private final List<Seen.SideRecord> sideRecords = new ArrayList<>();
    private final List<Seen.DeadLetter> deadLetters = new ArrayList<>();
    private final Map<String, Seen.Window> windows = new LinkedHashMap<>();
    private final Map<String, Boolean> aggregateIds = new HashMap<>();

    RunWatcher(SqsClient sqs, WindowTableReader table, Function<StoredWindow, WindowState> decode, String tapQueueUrl,
               String sideOutputQueueUrl, String deadLetterQueueUrl, Listener listener) {
        this.sqs = sqs;
        this.table = table;
        this.decode = decode;
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
        table.forEachHead(this::onWindow);
    }

    private void onWindow(StoredWindow stored) {
        WindowState w = decode.apply(stored);
        Integer expected = w.completeness().expected();
        Seen.Window now = new Seen.Window(w.ref().pipeline(), w.ref().key(), w.ref().windowId(), w.status().name(), w.dueAt(),
                w.revisionEvents(), w.openedAt(), w.hardDeadline(), expected == null ? null : expected.toString());
        Seen.Window before = windows.put(now.id(), now);
        if (before == null || !before.status().equals(now.status())) {
            listener.windowChanged(before, now);
        }
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
