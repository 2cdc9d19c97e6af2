package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.aws.sqs.TimerMessage;
import dev.fanin.testkit.CloudFormationYaml;
import dev.fanin.testkit.TemplateResources;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Least privilege, checked both ways against the code: each role grants only actions the code calls (a static read
 * of every SDK call in the adapters and handlers), and each function's role grants every action the function calls
 * (recorded by {@link SdkCallRecorder} while the real handlers run the sample traffic on the local endpoint: ingest
 * with good, bad and closing events, a timer, sweeps). Reading the configuration is ReadConfigurationPolicy's
 * (ConfigurationAccessTest).
 */
class IamActionsTest {

    private static final Path ROOT = TemplateResources.locateTemplate().toAbsolutePath().getParent();
    private static final Map<String, Object> T = CloudFormationYaml.read(ROOT.resolve("template.yaml"));
    private static final Map<String, String> ROLES = Map.of("ingest", "IngestRole", "timer", "TimerRole", "sweeper", "SweeperRole");
    /** Granted for the Lambda service, which acts with the function's role: its log writes and the queue polling. */
    private static final Set<String> FOR_THE_SERVICE = Set.of("logs:CreateLogStream", "logs:PutLogEvents", "sqs:ReceiveMessage",
            "sqs:DeleteMessage", "sqs:GetQueueAttributes");

    @Test
    void eachRoleGrantsOnlyActionsTheCodeCalls() throws IOException {
        Set<String> called = actionsInTheSource();
        assertThat(called).contains("dynamodb:PutItem", "dynamodb:Query", "dynamodb:BatchWriteItem", "events:PutEvents",
                "sqs:SendMessage", "s3:GetObject").doesNotContain("dynamodb:TransactWriteItems", "sqs:SendMessageBatch");
        for (String role : ROLES.values()) {
            Set<String> excess = new TreeSet<>(granted(role));
            excess.removeAll(called);
            excess.removeAll(FOR_THE_SERVICE);
            assertThat(excess).as(role + " grants actions no code calls").isEmpty();
        }
    }

    @Test
    void eachFunctionsRoleGrantsEveryActionItCalls() {
        SQSEvent alerts = SampleEvents.sqs("sqs-eventbridge-alerts.json");
        SQSEvent timer = SampleEvents.sqs("sqs-timer.json");
        LocalFanin fanin = LocalFanin.start("iam", SampleEvents.lastSent(alerts).plusSeconds(1));
        SdkCallRecorder.as("ingest", () -> {
            IngestFunction ingest = new IngestFunction(fanin.runtime);
            for (String file : List.of("sqs-eventbridge-alerts.json", "sqs-bad-messages.json", "sqs-raw-shards.json",
                    "sqs-s3-uploads.json", "sqs-sns-alerts.json")) {
                ingest.handleRequest(SampleEvents.sqs(file), TestContexts.invocation("iam-ingest"));
            }
            return null;
        });
        fanin.clock.set(TimerMessage.parse(timer.getRecords().get(0).getBody()).wakeup().dueAt().plusSeconds(1));
        SdkCallRecorder.as("timer", () -> new TimerFunction(fanin.runtime).handleRequest(timer, TestContexts.invocation("iam-timer")));
        for (Duration later : List.of(Duration.ofMinutes(5), Duration.ofHours(3))) {
            fanin.clock.advance(later);
            SdkCallRecorder.as("sweeper", () -> new SweeperFunction(fanin.runtime)
                    .handleRequest(SampleEvents.scheduled("scheduled-sweep.json"), TestContexts.invocation("iam-sweep", 60_000)));
        }

        assertThat(SdkCallRecorder.actions("ingest")).contains("dynamodb:PutItem", "events:PutEvents", "sqs:SendMessage");
        assertThat(SdkCallRecorder.actions("sweeper")).contains("dynamodb:BatchWriteItem");
        ROLES.forEach((function, role) -> assertThat(granted(role)).as(role + " grants what the " + function + " function calls")
                .containsAll(SdkCallRecorder.actions(function)));
    }

    /** Every action a role's own policies name (both branches of a condition: what it may be granted). */
    private static Set<String> granted(String role) {
        Map<String, Object> properties = map(map(map(T.get("Resources")).get(role)).get("Properties"));
        Set<String> actions = new TreeSet<>();
        for (Object policy : (List<?>) properties.get("Policies")) {
            collectActions(map(map(policy).get("PolicyDocument")).get("Statement"), actions);
        }
        return actions;
    }

    private static void collectActions(Object node, Set<String> into) {
        if (node instanceof Map<?, ?> m) {
            Object action = m.get("Action");
            if (action instanceof String a) {
                into.add(a);
            } else if (action instanceof List<?> list) {
                list.forEach(a -> into.add(String.valueOf(a)));
            }
            m.values().forEach(v -> collectActions(v, into));
        } else if (node instanceof List<?> list) {
            list.forEach(item -> collectActions(item, into));
        }
    }

    /**
     * The IAM actions of every SDK operation the adapters and handlers call: a call {@code .operation(} of one of the
     * clients' operations (a transaction: the kinds of its items), by the client's service.
     */
    private static Set<String> actionsInTheSource() throws IOException {
        Map<String, String> operations = new java.util.HashMap<>();
        operationsOf(DynamoDbClient.class, "dynamodb", operations);
        operationsOf(SqsClient.class, "sqs", operations);
        operationsOf(EventBridgeClient.class, "events", operations);
        operationsOf(S3Client.class, "s3", operations);
        Set<String> actions = new TreeSet<>();
        Pattern call = Pattern.compile("\\.(\\w+)\\(");
        Pattern transactionItem = Pattern.compile("TransactWriteItem\\.builder\\(\\)\\s*\\.(put|update|delete|conditionCheck)\\(");
        List<Path> sources = new ArrayList<>();
        for (String module : List.of("functions/adapters/src/main/java", "functions/handlers/src/main/java")) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(module))) {
                files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
            }
        }
        for (Path source : sources) {
            String text = Files.readString(source);
            Matcher m = call.matcher(text);
            while (m.find()) {
                String action = operations.get(m.group(1));
                if (action != null && !action.equals("dynamodb:TransactWriteItems")) {
                    actions.add(action);
                }
            }
            Matcher item = transactionItem.matcher(text);
            while (item.find()) {
                actions.add("dynamodb:" + switch (item.group(1)) {
                    case "put" -> "PutItem";
                    case "update" -> "UpdateItem";
                    case "delete" -> "DeleteItem";
                    default -> "ConditionCheckItem";
                });
            }
        }
        return actions;
    }

    /** The client's operations by method name (getObjectAsBytes is GetObject), skipping builders and the like. */
    private static void operationsOf(Class<?> client, String prefix, Map<String, String> into) {
        Set<String> ignored = Set.of("builder", "create", "close", "serviceName", "serviceClientConfiguration", "utilities",
                "waiter", "toString", "hashCode", "equals");
        for (Method method : client.getMethods()) {
            String name = method.getName().replaceFirst("AsBytes$", "");
            if (!ignored.contains(name) && method.getDeclaringClass() == client && !name.endsWith("Paginator")) {
                into.put(method.getName(), SdkCallRecorder.action(prefix, Character.toUpperCase(name.charAt(0)) + name.substring(1)));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }
}
