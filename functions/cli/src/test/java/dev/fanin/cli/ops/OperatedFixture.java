package dev.fanin.cli.ops;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.local.LambdaSqsEvents;
import dev.fanin.lambda.FaninRuntime;
import dev.fanin.lambda.InProcessContext;
import dev.fanin.lambda.IngestFunction;
import dev.fanin.lambda.SweeperFunction;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.LocalResources;
import dev.fanin.testkit.TemplateResources;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A stack on the local endpoint, made from template.yaml, with the real functions fed the way the Lambda service feeds
 * them (the input queue received in batches, partial failures left on the queue), and the {@code fanin} command line
 * pointed at it by resource names, as an operator would with a deployed stack.
 */
final class OperatedFixture {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Path TEMPLATE = Path.of("../../template.yaml").toAbsolutePath().normalize();

    record Run(int exit, String out, String err) { }

    final LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
    final LocalResources resources;
    final SqsClient sqs;
    private Path config;
    /** The configuration the command line is given: the functions' own, unless a test hands the operator another. */
    private Path operatorConfig;
    /** Variables the functions run with beside the template's; the command line is not given them. */
    private Map<String, String> functionVariables;
    private FaninRuntime runtime;
    private final Set<String> seenAggregates = new HashSet<>();

    OperatedFixture(Path dir, String configYaml) throws IOException {
        this(dir, configYaml, Map.of());
    }

    OperatedFixture(Path dir, String configYaml, Map<String, String> functionVariables) throws IOException {
        resources = TemplateResources.load(TEMPLATE).createOn(endpoint, "ops-" + UUID.randomUUID().toString().substring(0, 8) + "-");
        sqs = endpoint.sqs();
        useConfig(dir, configYaml, functionVariables);
    }

    /** Deploys another configuration: the functions and the command line read it from now on. */
    void useConfig(Path dir, String configYaml) throws IOException {
        config = Files.writeString(dir.resolve("pipelines-" + UUID.randomUUID() + ".yaml"), configYaml);
        operatorConfig = config;
        runtime = runtime(Clock.systemUTC());
    }

    /** Deploys another configuration and, with it, these variables beside the template's (the earlier ones go). */
    void useConfig(Path dir, String configYaml, Map<String, String> functionVariables) throws IOException {
        this.functionVariables = Map.copyOf(functionVariables);
        useConfig(dir, configYaml);
    }

    /** The command line is given {@code configYaml} (say, a draft) from now on; the functions keep theirs. */
    void operatorUses(Path dir, String configYaml) throws IOException {
        operatorConfig = Files.writeString(dir.resolve("draft-" + UUID.randomUUID() + ".yaml"), configYaml);
    }

    /** The functions' runtime, on {@code clock} (a sweep "later" runs on a clock ahead of this one). */
    FaninRuntime runtime(Clock clock) {
        Map<String, String> env = new HashMap<>(resources.functionEnvironment());
        env.putAll(functionVariables);
        env.putAll(awsEnvironment());
        env.put("FANIN_CONFIG", "file:" + config.toAbsolutePath());
        return FaninRuntime.create(env, clock);
    }

    Map<String, String> awsEnvironment() {
        return Map.of("AWS_ENDPOINT_URL", endpoint.endpoint().toString(), "AWS_REGION", LocalAwsEndpoint.REGION.id(),
                "AWS_ACCESS_KEY_ID", "fanin-local", "AWS_SECRET_ACCESS_KEY", "fanin-local");
    }

    void send(String body) {
        sqs.sendMessage(r -> r.queueUrl(resources.queueUrl("InputQueue")).messageBody(body));
    }

    /** Receives every message on the input queue and hands them to the ingest function ten at a time. */
    int deliver() {
        String queue = resources.queueUrl("InputQueue");
        String arn = sqs.getQueueAttributes(r -> r.queueUrl(queue).attributeNames(QueueAttributeName.QUEUE_ARN)).attributes()
                .get(QueueAttributeName.QUEUE_ARN);
        int handled = 0;
        while (true) {
            List<Message> batch = sqs.receiveMessage(r -> r.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(1)
                    .visibilityTimeout(30).messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All"))
                    .messages();
            if (batch.isEmpty()) {
                return handled;
            }
            SQSBatchResponse response = new IngestFunction(runtime).handleRequest(LambdaSqsEvents.of(batch, arn, "us-east-1"),
                    new InProcessContext("IngestFunction", UUID.randomUUID().toString(), "local", Duration.ofSeconds(30), Clock.systemUTC()));
            Set<String> failed = new HashSet<>();
            response.getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier()));
            for (Message m : batch) {
                if (!failed.contains(m.messageId())) {
                    sqs.deleteMessage(r -> r.queueUrl(queue).receiptHandle(m.receiptHandle()));
                    handled++;
                }
            }
        }
    }

    /** One scheduled sweep, by a sweeper whose clock is {@code ahead} of now. */
    void sweep(Duration ahead) {
        Clock clock = Clock.offset(Clock.systemUTC(), ahead);
        new SweeperFunction(runtime(clock)).handleRequest(new ScheduledEvent(),
                new InProcessContext("SweeperFunction", UUID.randomUUID().toString(), "local", Duration.ofSeconds(60), clock));
    }

    /** Aggregates put on the bus since the last call (each aggregate id once, as a consumer keyed on it would). */
    List<JsonNode> newAggregates() throws IOException {
        List<JsonNode> found = new ArrayList<>();
        while (true) {
            List<Message> got = sqs.receiveMessage(r -> r.queueUrl(resources.tapQueueUrl()).maxNumberOfMessages(10).waitTimeSeconds(1))
                    .messages();
            if (got.isEmpty()) {
                return found;
            }
            for (Message m : got) {
                JsonNode detail = JSON.readTree(m.body()).path("detail");
                if (seenAggregates.add(detail.path("aggregateId").asText())) {
                    found.add(detail);
                }
                sqs.deleteMessage(r -> r.queueUrl(resources.tapQueueUrl()).receiptHandle(m.receiptHandle()));
            }
        }
    }

    /** The stack's outputs, by the names template.yaml gives them. */
    Map<String, String> outputs() {
        return Map.of("WindowTableName", resources.tableName(), "InputQueueUrl", resources.queueUrl("InputQueue"),
                "InputDeadLetterQueueUrl", resources.queueUrl("InputDeadLetterQueue"), "TimerQueueUrl", resources.queueUrl("TimerQueue"),
                "LateEventsQueueUrl", resources.queueUrl("LateEventsQueue"), "OutputBusName", resources.busName());
    }

    /**
     * A CloudFormation stack on the local endpoint with these outputs (and the template's {@code DueShards} parameter),
     * for {@code --stack}; returns its name.
     */
    String createStack(Map<String, String> outputs) {
        StringBuilder template = new StringBuilder("Parameters:\n  DueShards: {Type: Number, Default: 16}\n"
                + "Resources:\n  Marker: {Type: AWS::SQS::Queue}\nOutputs:\n");
        outputs.forEach((name, value) -> template.append("  ").append(name).append(": {Value: '").append(value).append("'}\n"));
        String name = "fanin-ops-" + UUID.randomUUID().toString().substring(0, 8);
        try (CloudFormationClient cloudFormation = CloudFormationClient.builder().endpointOverride(endpoint.endpoint())
                .region(LocalAwsEndpoint.REGION).httpClientBuilder(UrlConnectionHttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("fanin-local", "fanin-local"))).build()) {
            cloudFormation.createStack(r -> r.stackName(name).templateBody(template.toString()));
        }
        return name;
    }

    /** {@code fanin <args> --table ... --config ...}: the command line against this stack, answering {@code stdin}. */
    Run fanin(String stdin, String... args) {
        List<String> line = new ArrayList<>(List.of(args));
        line.addAll(List.of("--table", resources.tableName(), "--input-queue-url", resources.queueUrl("InputQueue"),
                "--dead-letter-queue-url", resources.queueUrl("InputDeadLetterQueue"), "--timer-queue-url", resources.queueUrl("TimerQueue"),
                "--late-events-queue-url", resources.queueUrl("LateEventsQueue"), "--bus", resources.busName()));
        return faninAsIs(stdin, line.toArray(String[]::new));
    }

    /** {@code fanin <args> --config ...}, the resources named by {@code args} alone (e.g. {@code --stack}). */
    Run faninAsIs(String stdin, String... args) {
        List<String> line = new ArrayList<>(List.of(args));
        line.addAll(List.of("--config", operatorConfig.toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = new FaninCli(FaninCli.commands()).run(line.toArray(String[]::new),
                    new Console(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), o, e, awsEnvironment()));
        }
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
