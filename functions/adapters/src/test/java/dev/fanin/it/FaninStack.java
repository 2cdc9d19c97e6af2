package dev.fanin.it;

import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.aws.dynamodb.DynamoDbWatermarkStore;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.eventbridge.EventBridgeEmitter;
import dev.fanin.aws.sqs.SqsDeadLetters;
import dev.fanin.aws.sqs.SqsSideOutput;
import dev.fanin.aws.sqs.SqsWindowTimers;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowAssigner;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.LocalResources;
import dev.fanin.testkit.TemplateResources;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * One fanin deployment on the local endpoint for one test: the table, queues and bus created from
 * {@code template.yaml} under a fresh prefix, a pipeline configuration given as YAML, a test clock, and factories
 * for {@link Process}es (a Lambda container each: fresh adapters over the same resources, its own fault rules).
 * Every applied window write and every emission of every process is recorded here, in order, as the truth the
 * invariants are checked against.
 */
final class FaninStack {

    static final ObjectMapper JSON = new ObjectMapper();

    final LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
    final LocalResources resources;
    final FaninConfig config;
    final TestClock clock;
    final RecordingMetrics metrics = new RecordingMetrics();
    final List<ObservedStore.Write> writes = new CopyOnWriteArrayList<>();
    final List<AggregateEmitter.Request> emissions = new CopyOnWriteArrayList<>();
    private final List<JsonNode> onBus = new ArrayList<>();
    private int messageSeq;

    private FaninStack(String yaml, Instant start) {
        String prefix = "it" + UUID.randomUUID().toString().substring(0, 8) + "-";
        this.resources = TemplateResources.load(TemplateResources.locateTemplate()).createOn(endpoint, prefix);
        this.config = ConfigLoader.load(yaml, "test pipelines");
        this.clock = new TestClock(start);
    }

    /**
     * A stack for one raw-JSON pipeline named {@code p}: key {@code $.k}, event id {@code $.id}, event time
     * {@code $.t} (ISO-8601), plus {@code pipelineFields} (YAML lines at pipeline level, e.g. window and triggers).
     */
    static FaninStack rawPipeline(Instant start, String... pipelineFields) {
        StringBuilder yaml = new StringBuilder("""
                version: 1
                pipelines:
                  - name: p
                    key: [$.k]
                    eventId: $.id
                    eventTime: {path: $.t, fallback: reject}
                """);
        for (String line : pipelineFields) {
            yaml.append("    ").append(line).append('\n');
        }
        return new FaninStack(yaml.toString(), start);
    }

    PipelineConfig pipeline() {
        return config.pipelines().get(0);
    }

    Process process() {
        return process(FaninSettings.defaults(), endpoint.dynamoDb());
    }

    Process process(FaninSettings settings) {
        return process(settings, endpoint.dynamoDb());
    }

    /** A new process: fresh adapter instances (no state shared with other processes but the AWS resources). */
    Process process(FaninSettings settings, DynamoDbClient dynamo) {
        ObservedStore store = new ObservedStore(
                new DynamoDbWindowStore(dynamo, resources.tableName(), DynamoDbWindowStore.Settings.defaults()), this::decode, writes);
        ObservedEmitter emitter = new ObservedEmitter(
                new EventBridgeEmitter(endpoint.eventBridge(), config, resources.functionEnvironment()::get), emissions);
        SqsSideOutput side = new SqsSideOutput(endpoint.sqs(), resources.queueUrl("LateEventsQueue"));
        FaninPorts ports = new FaninPorts(store,
                new DynamoDbWatermarkStore(dynamo, resources.tableName(), DynamoDbWatermarkStore.Settings.defaults()),
                emitter,
                new SqsWindowTimers(endpoint.sqs(), resources.queueUrl("TimerQueue")),
                side,
                new SqsDeadLetters(endpoint.sqs(), resources.queueUrl("InputDeadLetterQueue")),
                metrics);
        return new Process(new FaninEngine(config, ports, settings, clock), store, emitter);
    }

    /** A DynamoDB client of its own on the local endpoint, with {@code interceptor} on every call. */
    DynamoDbClient dynamoDbWith(software.amazon.awssdk.core.interceptor.ExecutionInterceptor interceptor) {
        return DynamoDbClient.builder()
                .httpClientBuilder(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.builder())
                .region(LocalAwsEndpoint.REGION)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("fanin-local", "fanin-local")))
                .endpointOverride(endpoint.endpoint())
                .overrideConfiguration(c -> c.addExecutionInterceptor(interceptor))
                .build();
    }

    // ------------------------------------------------------------------ input

    /** A message for key {@code key}, event {@code id} at event time {@code t}, sent now. */
    InboundMessage message(String key, String id, Instant t) {
        return message(key, id, t, Map.of());
    }

    InboundMessage message(String key, String id, Instant t, Map<String, Object> fields) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("k", key);
        body.put("id", id);
        body.put("t", t.toString());
        body.putAll(fields);
        String text;
        try {
            text = JSON.writeValueAsString(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        synchronized (this) {
            messageSeq++;
        }
        return SqsDeliveries.inbound("msg-" + key + "-" + id + "-" + messageSeq, text,
                SqsDeliveries.systemAttributes(clock.instant(), 1), clock.instant());
    }

    /** The same messages as SQS redelivers them: same ids and bodies, receive count one higher. */
    static List<InboundMessage> redelivered(List<InboundMessage> batch) {
        List<InboundMessage> again = new ArrayList<>();
        for (InboundMessage m : batch) {
            again.add(SqsDeliveries.inbound(m.messageId(), m.body(), SqsDeliveries.systemAttributes(m.sentAt().orElseThrow(),
                    m.attempt() + 1), m.receivedAt()));
        }
        return again;
    }

    /** The (first) window a message's event falls into. */
    WindowRef ref(InboundMessage message) {
        Event e = new dev.fanin.core.intake.MessageIntake(config).parse(message).accepted().get(0);
        Interval w = WindowAssigner.assign(pipeline().window(), e.eventTime().toEpochMilli()).get(0);
        return new WindowRef(e.pipeline(), e.key(), WindowRef.timeWindowId(w.startMillis()));
    }

    /** Every window of a key as stored (a session pipeline's live sessions from the key's live item). */
    List<WindowState> windowsOfKey(String key) {
        return new DynamoDbWindowStore(endpoint.dynamoDb(), resources.tableName(), DynamoDbWindowStore.Settings.defaults())
                .windowsOfKey(pipeline().name(), key).stream().map(this::decode).toList();
    }

    Optional<WindowState> window(WindowRef ref) {
        return process().engine().ports().store().load(ref).map(this::decode);
    }

    WindowState decode(StoredWindow stored) {
        return WindowCodec.decode(stored, pipeline());
    }

    // ------------------------------------------------------------------ output

    /** Every aggregate that reached the bus so far (read from the local tap queue), as the event's detail. */
    synchronized List<JsonNode> aggregatesOnBus() {
        for (Message m : drain(resources.tapQueueUrl())) {
            try {
                onBus.add(JSON.readTree(m.body()).path("detail"));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("tap message is not JSON: " + m.body(), e);
            }
        }
        return List.copyOf(onBus);
    }

    /** Receives and deletes every message now visible on a queue. */
    List<Message> drain(String queueUrl) {
        List<Message> all = new ArrayList<>();
        while (true) {
            List<Message> page = endpoint.sqs().receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(0)
                    .messageAttributeNames("All").messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
            if (page.isEmpty()) {
                return all;
            }
            for (Message m : page) {
                endpoint.sqs().deleteMessage(r -> r.queueUrl(queueUrl).receiptHandle(m.receiptHandle()));
            }
            all.addAll(page);
        }
    }

    List<Map<String, AttributeValue>> scanTable() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            var page = endpoint.dynamoDb().scan(r -> r.tableName(resources.tableName()).exclusiveStartKey(from));
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    // ------------------------------------------------------------------ invariants

    /** Commits recorded so far, as "aggregateId" of the revision each committed, in order. */
    List<String> commits() {
        List<String> ids = new ArrayList<>();
        for (ObservedStore.Write w : writes) {
            if (w.isCommit()) {
                ids.add(w.committedAggregateId());
            }
        }
        return ids;
    }

    /** Commits of one window, in order. */
    List<String> commitsOf(WindowRef ref) {
        return writes.stream().filter(w -> w.isCommit() && w.ref().equals(ref)).map(ObservedStore.Write::committedAggregateId).toList();
    }

    /**
     * The flush invariants over everything recorded: each revision committed at most once; each committed revision
     * emitted at least once; every emission of one aggregate id carries the same aggregate, apart from
     * {@code emittedAt}; and what reached the bus validates against the schema.
     */
    void assertFlushInvariants() {
        List<String> commits = commits();
        assertThat(commits).as("one commit per window revision").doesNotHaveDuplicates();
        Map<String, List<JsonNode>> byId = new LinkedHashMap<>();
        for (AggregateEmitter.Request r : emissions) {
            try {
                JsonNode json = JSON.readTree(r.detailJson());
                assertThat(json.path("aggregateId").asText()).isEqualTo(r.aggregateId());
                byId.computeIfAbsent(r.aggregateId(), id -> new ArrayList<>()).add(json);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new AssertionError(e);
            }
        }
        List<String> emittedCommits = writes.stream().filter(w -> w.isCommit() && !w.committedDeadLettered())
                .map(ObservedStore.Write::committedAggregateId).toList();
        assertThat(byId.keySet()).as("every committed revision was emitted").containsAll(emittedCommits);
        byId.forEach((id, all) -> {
            JsonNode first = withoutEmittedAt(all.get(0));
            for (JsonNode again : all) {
                assertThat(withoutEmittedAt(again)).as("re-emission of " + id).isEqualTo(first);
            }
        });
        for (JsonNode aggregate : aggregatesOnBus()) {
            AggregateSchema.assertValid(aggregate);
        }
    }

    private static JsonNode withoutEmittedAt(JsonNode json) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = json.deepCopy();
        copy.remove("emittedAt");
        return copy;
    }

    /** Emissions (by the processes) of one aggregate id. */
    List<JsonNode> emitted(String aggregateId) {
        List<JsonNode> out = new ArrayList<>();
        for (AggregateEmitter.Request r : emissions) {
            if (r.aggregateId().equals(aggregateId)) {
                try {
                    out.add(JSON.readTree(r.detailJson()));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return out;
    }
}
