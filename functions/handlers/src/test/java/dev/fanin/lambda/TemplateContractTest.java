package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.fanin.core.service.MetricNames;
import dev.fanin.testkit.CloudFormationYaml;
import dev.fanin.testkit.TemplateResources;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What {@code template.yaml} and this module must agree on, so that a deploy cannot fail on a name: handlers,
 * environment variables, the metric names and dimension of the alarms and dashboard, and the {@code events/} files
 * the documentation points at.
 */
class TemplateContractTest {

    private static final Path TEMPLATE = TemplateResources.locateTemplate();
    private static final Path ROOT = TEMPLATE.toAbsolutePath().getParent();
    private static final Map<String, Object> T = CloudFormationYaml.read(TEMPLATE);

    /**
     * Every envelope fanin reads from a service's delivery (an SNS subscription, an EventBridge rule target, an S3
     * notification) can reach the input queue: those services send as themselves, which only a queue policy allows
     * (a review found none, while the README said to point them at the queue). The policy names the producers given in
     * ProducerSourceArns, and exists only when some are.
     */
    @Test
    void theServicesWhoseDeliveriesIntakeReadsMaySendToTheInputQueueForTheProducersNamed() {
        Map<String, Object> policy = map(map(T.get("Resources")).get("InputQueueProducerPolicy"));
        assertThat(policy.get("Type")).isEqualTo("AWS::SQS::QueuePolicy");
        assertThat(policy.get("Condition")).isEqualTo("HasProducerPolicy");
        Map<String, Object> properties = map(policy.get("Properties"));
        assertThat(properties.get("Queues")).isEqualTo(List.of(Map.of("Ref", "InputQueue")));
        List<?> statements = (List<?>) map(properties.get("PolicyDocument")).get("Statement");
        List<?> services = (List<?>) map(statements.get(0)).get("Fn::If");
        assertThat(services.get(0)).isEqualTo("HasProducerSources");
        Map<String, Object> statement = map(services.get(1));
        Set<String> expected = new TreeSet<>();
        for (dev.fanin.core.config.Envelope envelope : dev.fanin.core.config.Envelope.values()) {
            switch (envelope) {
                case RAW -> { }
                case SNS -> expected.add("sns.amazonaws.com");
                case EVENTBRIDGE -> expected.add("events.amazonaws.com");
                case S3 -> expected.add("s3.amazonaws.com");
            }
        }
        assertThat(new TreeSet<>((List<?>) map(statement.get("Principal")).get("Service"))).isEqualTo(expected);
        assertThat(statement.get("Action")).isEqualTo("sqs:SendMessage");
        assertThat(statement.get("Resource")).isEqualTo(Map.of("Fn::GetAtt", List.of("InputQueue", "Arn")));
        assertThat(map(map(statement.get("Condition")).get("ArnLike")).get("aws:SourceArn")).isEqualTo(Map.of("Ref", "ProducerSourceArns"));
        // Producers of other accounts, with their own credentials.
        List<?> accounts = (List<?>) map(statements.get(1)).get("Fn::If");
        assertThat(accounts.get(0)).isEqualTo("HasProducerPrincipals");
        assertThat(map(map(accounts.get(1)).get("Principal")).get("AWS")).isEqualTo(Map.of("Ref", "ProducerPrincipalArns"));
        assertThat(map(accounts.get(1)).get("Action")).isEqualTo("sqs:SendMessage");
    }

    @Test
    void everyHandlerNamesAClassOfThisModuleWithTheRightEventType() throws Exception {
        Map<String, Map<String, Object>> functions = resourcesOfType("AWS::Serverless::Function");
        assertThat(functions).isNotEmpty();
        for (Map.Entry<String, Map<String, Object>> f : functions.entrySet()) {
            Map<String, Object> properties = map(f.getValue().get("Properties"));
            String handler = (String) properties.get("Handler");
            assertThat(handler).as(f.getKey()).matches("[\\w.]+::\\w+");
            Class<?> type = Class.forName(handler.substring(0, handler.indexOf("::")));
            String method = handler.substring(handler.indexOf("::") + 2);
            assertThat(RequestHandler.class).as(handler).isAssignableFrom(type);
            assertThat(type.getConstructor().getModifiers() & Modifier.PUBLIC).as(handler + " public no-arg constructor").isNotZero();
            Type[] arguments = requestHandlerArguments(type);
            assertThat(Stream.of(type.getMethods()).map(Method::getName)).as(handler).contains(method);

            Set<String> eventTypes = new HashSet<>();
            map(properties.get("Events")).values().forEach(e -> eventTypes.add((String) map(e).get("Type")));
            assertThat(eventTypes).as(f.getKey() + " has one kind of trigger").hasSize(1);
            String trigger = eventTypes.iterator().next();
            if (trigger.equals("SQS")) {
                assertThat(arguments).as(handler).containsExactly(SQSEvent.class, SQSBatchResponse.class);
                map(properties.get("Events")).values().forEach(e -> assertThat(map(map(e).get("Properties")).get("FunctionResponseTypes"))
                        .as(f.getKey() + ": a handler returning SQSBatchResponse needs ReportBatchItemFailures")
                        .isEqualTo(List.of("ReportBatchItemFailures")));
            } else if (trigger.equals("Schedule")) {
                assertThat(arguments[0]).as(handler).isEqualTo(ScheduledEvent.class);
            } else {
                throw new AssertionError(f.getKey() + ": no test covers trigger " + trigger);
            }
        }
        assertThat(functions.values()).extracting(f -> (String) map(f.get("Properties")).get("Handler")).containsExactlyInAnyOrder(
                IngestFunction.class.getName() + "::handleRequest",
                TimerFunction.class.getName() + "::handleRequest",
                SweeperFunction.class.getName() + "::handleRequest");
    }

    /**
     * The sweeper's two schedules: SweepSchedule's plain scheduled event (the configured shards) and the hourly one,
     * whose input is {@code events/scheduled-sweep-every-shard.json} and asks for every shard.
     */
    @Test
    void theHourlyScheduleSendsTheEventThatSweepsEveryShard() throws IOException {
        Map<String, Object> events = map(map(resourcesOfType("AWS::Serverless::Function").get("SweeperFunction").get("Properties")).get("Events"));
        assertThat(events).containsOnlyKeys("Sweep", "SweepEveryShard");
        Map<String, Object> scheduled = map(map(events.get("Sweep")).get("Properties"));
        assertThat(scheduled).doesNotContainKey("Input");
        Map<String, Object> hourly = map(map(events.get("SweepEveryShard")).get("Properties"));
        assertThat(hourly).containsEntry("Schedule", "rate(1 hour)");

        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        Path file = ROOT.resolve("events/scheduled-sweep-every-shard.json");
        assertThat(json.readTree((String) hourly.get("Input"))).isEqualTo(json.readTree(file.toFile()));
        assertThat(SweeperFunction.everyShard(SampleEvents.scheduled(file.getFileName().toString()))).isTrue();
        assertThat(SweeperFunction.everyShard(SampleEvents.scheduled("scheduled-sweep.json"))).isFalse();
    }

    /** A failed sweep is resumed by the next scheduled run, not retried by Lambda beside it. */
    @Test
    void aFailedSweepIsNotRetriedByLambda() {
        Map<String, Object> sweeper = map(resourcesOfType("AWS::Serverless::Function").get("SweeperFunction").get("Properties"));
        assertThat(map(sweeper.get("EventInvokeConfig"))).containsEntry("MaximumRetryAttempts", 0);
    }

    /**
     * SAM must not build the functions: a Java function with a jar CodeUri goes to SAM's Maven workflow, which fails
     * ("CopySource - Not a directory", aws-sam-cli #4575, aws-lambda-builders #113), and a module directory fails on
     * the parent POM. The artifact is a prebuilt .zip that mvn package writes, and every function says SkipBuild.
     */
    @Test
    void theFunctionsDeployThePrebuiltZipThatMavenBuildsAndSamDoesNotBuild() throws IOException {
        Map<String, Object> globals = map(map(T.get("Globals")).get("Function"));
        String codeUri = (String) globals.get("CodeUri");
        assertThat(codeUri).isEqualTo("functions/handlers/target/fanin-functions-lambda.zip");
        String pom = Files.readString(ROOT.resolve("functions/handlers/pom.xml"));
        assertThat(pom).contains("<outputFile>${project.build.directory}/" + Path.of(codeUri).getFileName() + "</outputFile>");
        assertThat(globals).containsEntry("Runtime", "java21").doesNotContainKey("PackageType");
        for (Map.Entry<String, Map<String, Object>> f : resourcesOfType("AWS::Serverless::Function").entrySet()) {
            assertThat(f.getValue().get("Metadata")).as(f.getKey()).isEqualTo(Map.of("SkipBuild", true));
            assertThat(map(f.getValue().get("Properties"))).as(f.getKey() + " takes the artifact from Globals")
                    .doesNotContainKeys("CodeUri", "InlineCode", "PackageType", "Runtime");
        }
    }

    @Test
    void theTemplateSetsExactlyTheVariablesTheFunctionsAndTheirLibrariesRead() throws IOException {
        Map<String, Object> variables = map(map(map(map(T.get("Globals")).get("Function")).get("Environment")).get("Variables"));
        for (Map<String, Object> f : resourcesOfType("AWS::Serverless::Function").values()) {
            assertThat(map(f.get("Properties"))).as("variables are set once, in Globals").doesNotContainKey("Environment");
        }
        Set<String> expected = new TreeSet<>(EnvironmentVariables.FROM_TEMPLATE);
        expected.addAll(EnvironmentVariables.FOR_LIBRARIES);
        assertThat(new TreeSet<>(variables.keySet())).isEqualTo(expected);
        assertThat(variables.get("POWERTOOLS_SERVICE_NAME")).isEqualTo(PowertoolsMetrics.SERVICE);
        assertThat(variables.get("POWERTOOLS_METRICS_NAMESPACE")).isEqualTo(PowertoolsMetrics.NAMESPACE);

        Set<String> read = new TreeSet<>();
        Pattern literal = Pattern.compile("\"((?:FANIN|AWS|POWERTOOLS)_[A-Z0-9_]+)\"");
        try (Stream<Path> sources = Files.walk(Path.of("src/main"))) {
            for (Path source : sources.filter(Files::isRegularFile).toList()) {
                String text = Files.readString(source);
                collect(literal, text, read);
                collect(Pattern.compile("\\$\\{env:([A-Z0-9_]+)"), text, read);
            }
        }
        collect(Pattern.compile("\\$\\{([A-Z0-9_]+)}"), Files.readString(ROOT.resolve("functions/core/src/main/resources/fanin/pipelines.yaml")), read);
        Set<String> known = new HashSet<>(variables.keySet());
        known.addAll(EnvironmentVariables.FROM_LAMBDA_OR_LOCAL);
        assertThat(read).as("variables read by the functions' code, log config and bundled pipelines").isSubsetOf(known)
                .containsAll(EnvironmentVariables.FROM_TEMPLATE);
    }

    /**
     * The JDK keeps at most {@code http.maxConnections} idle connections per host (5 by default): fewer than the
     * sweeper's shard threads, and each call past them opens a new TLS connection.
     */
    @Test
    void everySweeperThreadKeepsItsConnectionToTheTable() {
        Map<String, Object> variables = map(map(map(map(T.get("Globals")).get("Function")).get("Environment")).get("Variables"));
        Matcher kept = Pattern.compile("-Dhttp\\.maxConnections=(\\d+)").matcher((String) variables.get("JAVA_TOOL_OPTIONS"));
        assertThat(kept.find()).as("JAVA_TOOL_OPTIONS sets http.maxConnections").isTrue();
        Object mostThreads = map(map(T.get("Parameters")).get("SweepParallelism")).get("MaxValue");
        assertThat(Integer.parseInt(kept.group(1))).isGreaterThanOrEqualTo(((Number) mostThreads).intValue());
    }

    @Test
    void everyRoleThatEmitsMaySendToTheEmitQueuesAndBusesWhenTheyAreGiven() {
        Map<String, Object> variables = map(map(map(map(T.get("Globals")).get("Function")).get("Environment")).get("Variables"));
        assertThat(variables.get(EnvironmentVariables.EMIT_QUEUE_URL)).isEqualTo(Map.of("Ref", "EmitQueueUrl"));
        assertThat(map(T.get("Conditions")).get("HasEmitQueues")).hasToString(
                "{Fn::Not=[{Fn::Equals=[{Fn::Join=[, {Ref=EmitQueueArns}]}, ]}]}");
        Map<String, Object> sendToQueues = Map.of("Sid", "EmitAggregatesToQueues", "Effect", "Allow", "Action", "sqs:SendMessage",
                "Resource", Map.of("Ref", "EmitQueueArns"));
        Map<String, Object> putOnBuses = Map.of("Sid", "EmitAggregatesToOtherBuses", "Effect", "Allow", "Action", "events:PutEvents",
                "Resource", Map.of("Ref", "EmitBusArns"));
        int emittingRoles = 0;
        for (Map.Entry<String, Map<String, Object>> role : resourcesOfType("AWS::IAM::Role").entrySet()) {
            List<Object> statements = new ArrayList<>();
            for (Object policy : (List<?>) map(role.getValue().get("Properties")).getOrDefault("Policies", List.of())) {
                statements.addAll((List<?>) map(map(policy).get("PolicyDocument")).get("Statement"));
            }
            boolean emits = statements.stream().anyMatch(st -> st instanceof Map<?, ?> m && "EmitAggregates".equals(m.get("Sid")));
            if (emits) {
                emittingRoles++;
                assertThat(statements).as(role.getKey()).contains(
                        Map.of("Fn::If", List.of("HasEmitQueues", sendToQueues, Map.of("Ref", "AWS::NoValue"))),
                        Map.of("Fn::If", List.of("HasEmitBuses", putOnBuses, Map.of("Ref", "AWS::NoValue"))));
            }
        }
        assertThat(emittingRoles).as("ingest, timer and sweeper flush windows").isEqualTo(3);
    }

    @Test
    void alarmsAndDashboardUseMetricsTheFunctionsEmitWithTheirOneDimension() throws IllegalAccessException {
        Set<String> emitted = metricNames(MetricNames.class);
        emitted.addAll(metricNames(FunctionMetricNames.class));
        List<String> checked = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> alarm : resourcesOfType("AWS::CloudWatch::Alarm").entrySet()) {
            Map<String, Object> p = map(alarm.getValue().get("Properties"));
            List<Map<String, Object>> metrics = new ArrayList<>();
            if (p.containsKey("MetricName")) {
                metrics.add(p);
            }
            if (p.get("Metrics") instanceof List<?> list) {
                list.stream().map(TemplateContractTest::map).filter(m -> m.containsKey("MetricStat"))
                        .forEach(m -> metrics.add(map(map(m.get("MetricStat")).get("Metric"))));
            }
            for (Map<String, Object> m : metrics) {
                if (!PowertoolsMetrics.NAMESPACE.equals(m.get("Namespace"))) {
                    continue;
                }
                assertThat(emitted).as(alarm.getKey()).contains((String) m.get("MetricName"));
                assertThat(m.get("Dimensions")).as(alarm.getKey())
                        .isEqualTo(List.of(Map.of("Name", PowertoolsMetrics.SERVICE_DIMENSION, "Value", PowertoolsMetrics.SERVICE)));
                checked.add((String) m.get("MetricName"));
            }
        }
        assertThat(checked).contains(MetricNames.SECONDS_PAST_HARD_DEADLINE, MetricNames.OVERDUE_WINDOWS, MetricNames.EMIT_FAILURES,
                MetricNames.LATE_EVENTS);

        String dashboard = String.valueOf(map(map(resourcesOfType("AWS::CloudWatch::Dashboard").values().iterator().next()
                .get("Properties")).get("DashboardBody")).get("Fn::Sub"));
        Matcher widget = Pattern.compile("\\[\"Fanin\", \"(\\w+)\", \"(\\w+)\", \"(\\w+)\"").matcher(dashboard);
        int widgets = 0;
        while (widget.find()) {
            widgets++;
            assertThat(emitted).as("dashboard metric").contains(widget.group(1));
            assertThat(widget.group(2) + "=" + widget.group(3)).isEqualTo("service=fanin");
        }
        assertThat(widgets).isGreaterThanOrEqualTo(10);
    }

    /**
     * The closure alarms read metrics only the sweeper emits, so a sweeper that never runs leaves them quiet. One alarm
     * watches the runs themselves: the sweeper function's invocations less its errors (a failed run rethrows), with
     * no data at all counting as breaching.
     */
    @Test
    void anAlarmFiresWhenTheSweeperFinishesNoRun() {
        Map<String, Object> alarm = map(map(resourcesOfType("AWS::CloudWatch::Alarm").get("SweeperNotSweepingAlarm")).get("Properties"));
        Map<String, Map<String, Object>> metrics = new LinkedHashMap<>();
        ((List<?>) alarm.get("Metrics")).stream().map(TemplateContractTest::map).forEach(m -> metrics.put((String) m.get("Id"), m));

        for (String id : List.of("invocations", "errors")) {
            Map<String, Object> metric = map(map(metrics.get(id).get("MetricStat")).get("Metric"));
            assertThat(metric.get("Namespace")).isEqualTo("AWS/Lambda");
            assertThat(metric.get("MetricName")).isEqualTo(id.equals("errors") ? "Errors" : "Invocations");
            assertThat(metric.get("Dimensions")).isEqualTo(List.of(Map.of("Name", "FunctionName", "Value", Map.of("Ref", "SweeperFunction"))));
            assertThat(map(metrics.get(id).get("MetricStat")).get("Stat")).isEqualTo("Sum");
        }
        assertThat(metrics.get("finished").get("Expression")).isEqualTo("FILL(invocations, 0) - FILL(errors, 0)");
        assertThat(metrics.values().stream().filter(m -> Boolean.TRUE.equals(m.get("ReturnData"))).map(m -> m.get("Id")))
                .containsExactly("finished");
        assertThat(alarm.get("ComparisonOperator")).isEqualTo("LessThanThreshold");
        assertThat(alarm.get("Threshold")).isEqualTo(1);
        assertThat(alarm.get("TreatMissingData")).isEqualTo("breaching");
        assertThat(alarm.get("EvaluationPeriods")).isEqualTo(Map.of("Ref", "SweeperSilenceAlarmMinutes"))
                .isEqualTo(alarm.get("DatapointsToAlarm"));
        assertThat(map(map(resourcesOfType("AWS::Serverless::Function").get("SweeperFunction")).get("Properties")).get("Handler"))
                .isEqualTo(SweeperFunction.class.getName() + "::handleRequest");
    }

    @Test
    void operationsDocDescribesEveryMetricAndEveryAlarm() throws IOException, IllegalAccessException {
        String doc = Files.readString(ROOT.resolve("docs/OPERATIONS.md"));
        Set<String> metrics = metricNames(MetricNames.class);
        metrics.addAll(metricNames(FunctionMetricNames.class));
        for (String metric : metrics) {
            assertThat(doc).as("docs/OPERATIONS.md row for metric " + metric).contains("| `" + metric + "` |");
        }
        for (Map<String, Object> alarm : resourcesOfType("AWS::CloudWatch::Alarm").values()) {
            String name = String.valueOf(map(map(alarm.get("Properties")).get("AlarmName")).get("Fn::Sub"));
            String suffix = name.substring(name.lastIndexOf('-') + 1);
            assertThat(doc).as("docs/OPERATIONS.md row for alarm " + name).contains("| `" + suffix + "` |");
        }
    }

    @Test
    void everyEventFileTheDocumentationNamesExists() throws IOException {
        Pattern file = Pattern.compile("((?:sqs|scheduled)-[a-z0-9-]+\\.json)");
        Map<String, Set<String>> referenced = new LinkedHashMap<>();
        List<Path> documents = new ArrayList<>();
        if (Files.exists(ROOT.resolve("README.md"))) {
            documents.add(ROOT.resolve("README.md"));
        }
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        for (Path doc : documents) {
            Set<String> names = new TreeSet<>();
            collect(file, Files.readString(doc), names);
            referenced.put(ROOT.relativize(doc).toString(), names);
        }
        assertThat(referenced.values().stream().mapToInt(Set::size).sum()).as("docs name the sample events").isPositive();
        referenced.forEach((doc, names) -> names.forEach(name ->
                assertThat(ROOT.resolve("events").resolve(name)).as(doc + " names events/" + name).isRegularFile()));
    }

    private static Type[] requestHandlerArguments(Class<?> type) {
        for (Type t : type.getGenericInterfaces()) {
            if (t instanceof ParameterizedType p && p.getRawType() == RequestHandler.class) {
                return p.getActualTypeArguments();
            }
        }
        throw new AssertionError(type + " must implement RequestHandler<I, O> directly");
    }

    private static Set<String> metricNames(Class<?> holder) throws IllegalAccessException {
        Set<String> names = new TreeSet<>();
        for (Field f : holder.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                names.add((String) f.get(null));
            }
        }
        return names;
    }

    private static void collect(Pattern pattern, String text, Set<String> into) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    private static Map<String, Map<String, Object>> resourcesOfType(String type) {
        Map<String, Map<String, Object>> found = new LinkedHashMap<>();
        map(T.get("Resources")).forEach((id, r) -> {
            if (type.equals(map(r).get("Type"))) {
                found.put(id, map(r));
            }
        });
        return found;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }
}
