package dev.fanin.cli.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.lambda.InProcessContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * An SQS event source mapping run in-process, doing what the Lambda service does for an SQS-triggered function
 * with {@code ReportBatchItemFailures}: receive up to the batch size (waiting up to the maximum batching window to
 * fill it), invoke the handler with the {@link SQSEvent}, and delete exactly the messages not reported in
 * {@code batchItemFailures}. A handler that throws, or reports an id that is not in the batch, fails the whole
 * batch: nothing is deleted. Undeleted messages reappear after the queue's visibility timeout, and its redrive
 * policy moves them to the dead-letter queue after maxReceiveCount receives. One invocation at a time.
 */
final class SqsEventSource implements AutoCloseable {

    /** What one invocation did, for the live view. */
    interface Listener {
        void invoked(String function, int records, int failed, boolean threw, Duration took);
    }

    private static final int MAX_RECEIVE = 10;

    private final SqsClient sqs;
    private final String queueUrl;
    private final FunctionSettingsFromTemplate.EventSource settings;
    private final RequestHandler<SQSEvent, SQSBatchResponse> handler;
    private final Listener listener;
    private final Clock clock;
    private final String queueArn;
    private final Duration visibilityTimeout;
    private final Thread thread;
    private volatile boolean running = true;

    SqsEventSource(SqsClient sqs, String queueUrl, FunctionSettingsFromTemplate.EventSource settings,
                   RequestHandler<SQSEvent, SQSBatchResponse> handler, Listener listener, Clock clock) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.settings = settings;
        this.handler = handler;
        this.listener = listener;
        this.clock = clock;
        var attributes = sqs.getQueueAttributes(r -> r.queueUrl(queueUrl)
                .attributeNames(QueueAttributeName.QUEUE_ARN, QueueAttributeName.VISIBILITY_TIMEOUT)).attributes();
        this.queueArn = attributes.get(QueueAttributeName.QUEUE_ARN);
        this.visibilityTimeout = Duration.ofSeconds(Long.parseLong(attributes.getOrDefault(QueueAttributeName.VISIBILITY_TIMEOUT, "30")));
        this.thread = new Thread(this::pollUntilClosed, "fanin-local-" + settings.function());
        this.thread.setDaemon(true);
    }

    SqsEventSource start() {
        thread.start();
        return this;
    }

    Duration visibilityTimeout() {
        return visibilityTimeout;
    }

    private void pollUntilClosed() {
        while (running) {
            try {
                List<Message> batch = collectBatch();
                if (!batch.isEmpty() && running) {
                    invoke(batch);
                }
            } catch (RuntimeException e) {
                if (running) {
                    // The endpoint hiccupped; like Lambda's poller, back off briefly and poll again.
                    sleep(Duration.ofMillis(500));
                }
            }
        }
    }

    /** Up to the batch size, waiting at most the maximum batching window (one receive when it is zero). */
    private List<Message> collectBatch() {
        List<Message> batch = new ArrayList<>();
        Instant windowEnd = clock.instant().plus(settings.maxBatchingWindow());
        do {
            int want = Math.min(MAX_RECEIVE, settings.batchSize() - batch.size());
            batch.addAll(sqs.receiveMessage(r -> r.queueUrl(queueUrl)
                    .maxNumberOfMessages(want)
                    .waitTimeSeconds(1)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                    .messageAttributeNames("All")).messages());
        } while (running && batch.size() < settings.batchSize() && clock.instant().isBefore(windowEnd));
        return batch;
    }

    private void invoke(List<Message> batch) {
        SQSEvent event = LambdaSqsEvents.of(batch, queueArn, "us-east-1");
        Instant started = clock.instant();
        Set<String> batchIds = new HashSet<>();
        batch.forEach(m -> batchIds.add(m.messageId()));
        Set<String> failed = new HashSet<>();
        boolean threw = false;
        try {
            SQSBatchResponse response = handler.handleRequest(event,
                    new InProcessContext(settings.function(), java.util.UUID.randomUUID().toString(), "local", settings.functionTimeout(), clock));
            if (response != null && response.getBatchItemFailures() != null) {
                response.getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier()));
            }
            if (!batchIds.containsAll(failed)) {
                failed.addAll(batchIds); // Lambda treats an unknown or empty identifier as a failure of the batch
            }
        } catch (RuntimeException e) {
            threw = true;
            failed.addAll(batchIds);
        }
        delete(batch.stream().filter(m -> !failed.contains(m.messageId())).toList());
        listener.invoked(settings.function(), batch.size(), failed.size(), threw, Duration.between(started, clock.instant()));
    }

    private void delete(List<Message> done) {
        for (int from = 0; from < done.size(); from += MAX_RECEIVE) {
            List<Message> chunk = done.subList(from, Math.min(done.size(), from + MAX_RECEIVE));
            List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int i = 0; i < chunk.size(); i++) {
                entries.add(DeleteMessageBatchRequestEntry.builder().id(String.valueOf(i))
                        .receiptHandle(chunk.get(i).receiptHandle()).build());
            }
            sqs.deleteMessageBatch(r -> r.queueUrl(queueUrl).entries(entries));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops polling after the invocation in flight (if any) and the current receive (at most a second). */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
