package dev.fanin.lambda;

import dev.fanin.testkit.AggregateSchema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.core.machine.WindowState;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.LocalResources;
import dev.fanin.testkit.TemplateResources;
import dev.fanin.testkit.TestClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;

/**
 * The template's resources on the shared local endpoint under a fresh prefix, and a {@link FaninRuntime} built from
 * the template's function environment (plus what Lambda would add: region and credentials, and the local endpoint)
 * on a hand-moved clock: what a deployed function would see, here.
 */
final class LocalFanin {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();

    final LocalAwsEndpoint endpoint;
    final LocalResources resources;
    final Map<String, String> environment;
    final TestClock clock;
    final FaninRuntime runtime;

    private LocalFanin(LocalAwsEndpoint endpoint, LocalResources resources, Map<String, String> environment, TestClock clock) {
        this.endpoint = endpoint;
        this.resources = resources;
        this.environment = environment;
        this.clock = clock;
        this.runtime = FaninRuntime.create(environment, clock);
    }

    /** @param name a short name for the resource prefix (letters, digits, dashes) */
    static LocalFanin start(String name, Instant clockStart) {
        return start(name, clockStart, Map.of());
    }

    /** As {@link #start(String, Instant)}, with some of the function environment replaced (e.g. FANIN_CONFIG). */
    static LocalFanin start(String name, Instant clockStart, Map<String, String> environmentOverrides) {
        LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
        LocalResources resources = TemplateResources.load(TemplateResources.locateTemplate()).createOn(endpoint, prefix(name));
        Map<String, String> environment = environmentFor(endpoint, resources);
        environment.putAll(environmentOverrides);
        return new LocalFanin(endpoint, resources, environment, new TestClock(clockStart));
    }

    /** A fresh prefix for the names of one test's resources. */
    static String prefix(String name) {
        return name + RUNS.incrementAndGet() + "-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36) + "-";
    }

    /** The template's Globals environment, as Lambda would complete it, pointed at the local endpoint. */
    static Map<String, String> environmentFor(LocalAwsEndpoint endpoint, LocalResources resources) {
        Map<String, String> env = new HashMap<>(resources.functionEnvironment());
        env.put(EnvironmentVariables.AWS_REGION, LocalAwsEndpoint.REGION.id());
        env.put(EnvironmentVariables.AWS_ENDPOINT_URL, endpoint.endpoint().toString());
        env.put(EnvironmentVariables.AWS_ACCESS_KEY_ID, "fanin-test");
        env.put(EnvironmentVariables.AWS_SECRET_ACCESS_KEY, "fanin-test");
        return env;
    }

    SqsClient sqs() {
        return endpoint.sqs();
    }

    /** Every window of a key, as the core reads it from the table (live sessions from the key's live item). */
    List<WindowState> windows(String pipeline, String key) {
        return ((DynamoDbWindowStore) runtime.engine().ports().store()).windowsOfKey(pipeline, key).stream()
                .map(runtime.engine()::decode).toList();
    }

    /**
     * Receives and deletes messages from a queue until {@code expected} have arrived or {@code timeout} has passed,
     * then keeps listening for {@code settle} so that a surplus would be seen too.
     */
    List<Message> receive(String queueUrl, int expected, Duration timeout, Duration settle) {
        List<Message> received = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (received.size() < expected && System.nanoTime() < deadline) {
            received.addAll(receiveOnce(queueUrl, 1));
        }
        long settleEnd = System.nanoTime() + settle.toNanos();
        while (System.nanoTime() < settleEnd) {
            received.addAll(receiveOnce(queueUrl, 1));
        }
        return received;
    }

    private List<Message> receiveOnce(String queueUrl, int waitSeconds) {
        List<Message> messages = sqs().receiveMessage(ReceiveMessageRequest.builder()
                .queueUrl(queueUrl)
                .maxNumberOfMessages(10)
                .waitTimeSeconds(waitSeconds)
                .messageAttributeNames("All")
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                .build()).messages();
        for (Message m : messages) {
            sqs().deleteMessage(DeleteMessageRequest.builder().queueUrl(queueUrl).receiptHandle(m.receiptHandle()).build());
        }
        return messages;
    }

    /** Messages of the queue (by logical id) still in their delivery delay. */
    int delayedMessages(String logicalId) {
        return Integer.parseInt(sqs().getQueueAttributes(GetQueueAttributesRequest.builder()
                        .queueUrl(resources.queueUrl(logicalId))
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)
                        .build())
                .attributes().get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED));
    }

    /** The aggregate events (EventBridge {@code detail}) that reached the bus, through the local tap queue; each schema-valid. */
    List<JsonNode> aggregates(int expected, Duration timeout, Duration settle) {
        return receive(resources.tapQueueUrl(), expected, timeout, settle).stream()
                .map(m -> json(m.body()).path("detail"))
                .peek(AggregateSchema::assertValid)
                .toList();
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One invocation of the ingest function with {@code event}: the ids of the messages it hands back to SQS. */
    List<String> ingest(com.amazonaws.services.lambda.runtime.events.SQSEvent event) {
        return new IngestFunction(runtime).handleRequest(event, TestContexts.invocation("ingest"))
                .getBatchItemFailures().stream().map(f -> f.getItemIdentifier()).toList();
    }

    /** One scheduled invocation of the sweeper function, at the clock's time. */
    void sweep() {
        new SweeperFunction(runtime).handleRequest(SampleEvents.scheduled("scheduled-sweep.json"), TestContexts.invocation("sweep", 60_000));
    }
}
