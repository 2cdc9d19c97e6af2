package dev.fanin.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Creates the stateful resources of {@code template.yaml} on a local endpoint, taking their definitions from the
 * template itself so local resources cannot drift from the deployed ones: every {@code AWS::DynamoDB::Table}
 * (keys, attribute definitions, indexes, TTL, PITR, SSE), every {@code AWS::SQS::Queue} (FIFO, visibility timeout,
 * retention, delay, redrive policy to the dead-letter queue resolved by logical id) and every
 * {@code AWS::Events::EventBus}, plus a local-only tap queue on each bus (see {@link LocalResources#tapQueueUrl()}).
 * Intrinsics are evaluated with parameter defaults unless overridden by {@link #withParameter}. Names are
 * {@code prefix + logicalId}. Functions, roles, log groups, alarms and the like have no local counterpart and are
 * not created; a Ref to one of them from a created resource fails.
 */
public final class TemplateResources {

    private static final String TABLE = "AWS::DynamoDB::Table";
    private static final String QUEUE = "AWS::SQS::Queue";
    private static final String BUS = "AWS::Events::EventBus";
    private static final Set<String> CREATED_TYPES = Set.of(TABLE, QUEUE, BUS);
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_-]{1,40}");

    private final Map<String, Object> template;
    private final Map<String, String> parameters;

    private TemplateResources(Map<String, Object> template, Map<String, String> parameters) {
        this.template = template;
        this.parameters = parameters;
    }

    public static TemplateResources load(Path template) {
        return new TemplateResources(CloudFormationYaml.read(template), Map.of());
    }

    public static TemplateResources parse(String templateYaml) {
        return new TemplateResources(CloudFormationYaml.parse(templateYaml), Map.of());
    }

    /** The repository's {@code template.yaml}, found from the working directory upwards (module or root). */
    public static Path locateTemplate() {
        Path directory = Path.of("").toAbsolutePath();
        for (Path candidate = directory; candidate != null; candidate = candidate.getParent()) {
            Path template = candidate.resolve("template.yaml");
            if (Files.isRegularFile(template)) {
                return template;
            }
        }
        throw new IllegalStateException("no template.yaml in " + directory + " or any parent directory");
    }

    /** A copy that evaluates the template with {@code name} set to {@code value} (checked against AllowedValues). */
    public TemplateResources withParameter(String name, String value) {
        Map<String, String> changed = new HashMap<>(parameters);
        changed.put(name, value);
        new TemplateEvaluator(template, changed, Map.of(), null); // validates name and AllowedValues now
        return new TemplateResources(template, Map.copyOf(changed));
    }

    /** Parameter {@code name} as these parameters set it: its override, else its default. */
    public String parameter(String name) {
        return new TemplateEvaluator(template, parameters, Map.of(), null).evaluateString(Map.of("Ref", name), "Parameters." + name);
    }

    /**
     * Property {@code property} of resource {@code logicalId} as these parameters make it (conditions and mappings
     * evaluated), for a value that refers to no other resource, such as a queue's visibility timeout.
     */
    public String property(String logicalId, String property) {
        Object value = path(template, "Resources", logicalId, "Properties", property);
        if (value == null) {
            throw new IllegalArgumentException("template has no property " + property + " on resource " + logicalId);
        }
        return new TemplateEvaluator(template, parameters, Map.of(), null).evaluateString(value, logicalId + "." + property);
    }

    /**
     * Creates the resources on {@code endpoint} named {@code prefix + logicalId}. Use a prefix unique to the test
     * (or reset the endpoint) when the names may already exist there.
     */
    public LocalResources createOn(LocalAwsEndpoint endpoint, String prefix) {
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("prefix '" + prefix + "' must be 1-40 of [A-Za-z0-9_-]");
        }
        return new Creation(endpoint, prefix).run();
    }

    /** One run of createOn: the resources created so far, created on demand when something refers to them. */
    private final class Creation implements TemplateEvaluator.ResourceRefs {

        private final LocalAwsEndpoint endpoint;
        private final String prefix;
        private final TemplateEvaluator evaluator;
        private final Map<String, String> tableArns = new LinkedHashMap<>();
        private final Map<String, LocalQueue.Created> queues = new LinkedHashMap<>();
        private final Map<String, LocalBus.Created> buses = new LinkedHashMap<>();
        private final Set<String> inProgress = new HashSet<>();

        Creation(LocalAwsEndpoint endpoint, String prefix) {
            this.endpoint = endpoint;
            this.prefix = prefix;
            String stackName = prefix.endsWith("-") ? prefix.substring(0, prefix.length() - 1) : prefix;
            Map<String, String> pseudo = Map.of(
                    "AWS::Region", LocalAwsEndpoint.REGION.id(),
                    "AWS::AccountId", "123456789012",
                    "AWS::Partition", "aws",
                    "AWS::URLSuffix", "amazonaws.com",
                    "AWS::StackName", stackName,
                    "AWS::StackId", "arn:aws:cloudformation:us-east-1:123456789012:stack/" + stackName + "/local");
            this.evaluator = new TemplateEvaluator(template, parameters, pseudo, this);
        }

        LocalResources run() {
            for (Object id : resources().keySet()) {
                String logicalId = String.valueOf(id);
                if (CREATED_TYPES.contains(type(logicalId)) && switchedOn(logicalId)) {
                    ensureCreated(logicalId);
                }
            }
            if (tableArns.size() != 1 || buses.size() != 1) {
                throw new IllegalStateException("the template should declare one table and one bus, found tables "
                        + tableArns.keySet() + " and buses " + buses.keySet());
            }
            Map<String, String> queueUrls = new TreeMap<>();
            queues.forEach((id, queue) -> queueUrls.put(id, queue.url()));
            LocalBus.Created bus = buses.values().iterator().next();
            return new LocalResources(prefix + tableArns.keySet().iterator().next(), queueUrls, bus.name(),
                    bus.tapQueueUrl(), functionEnvironment());
        }

        private Map<String, String> functionEnvironment() {
            Object variables = path(template, "Globals", "Function", "Environment", "Variables");
            Map<String, String> environment = new TreeMap<>();
            if (variables instanceof Map<?, ?> map) {
                map.forEach((name, value) -> environment.put(String.valueOf(name),
                        evaluator.evaluateString(value, "Globals.Function.Environment.Variables." + name)));
            }
            return environment;
        }

        @Override
        public String ref(String logicalId) {
            ensureCreated(logicalId);
            switch (type(logicalId)) {
                case TABLE:
                    return prefix + logicalId;
                case QUEUE:
                    return queues.get(logicalId).url();
                default:
                    return buses.get(logicalId).name();
            }
        }

        @Override
        public String attribute(String logicalId, String attribute) {
            ensureCreated(logicalId);
            String value = null;
            switch (type(logicalId)) {
                case TABLE:
                    value = attribute.equals("Arn") ? tableArns.get(logicalId) : null;
                    break;
                case QUEUE: {
                    LocalQueue.Created queue = queues.get(logicalId);
                    value = attribute.equals("Arn") ? queue.arn()
                            : attribute.equals("QueueName") ? queue.name()
                            : attribute.equals("QueueUrl") ? queue.url() : null;
                    break;
                }
                default: {
                    LocalBus.Created bus = buses.get(logicalId);
                    value = attribute.equals("Arn") ? bus.arn() : attribute.equals("Name") ? bus.name() : null;
                }
            }
            if (value == null) {
                throw new UnsupportedOperationException("Fn::GetAtt " + logicalId + "." + attribute
                        + " has no local value");
            }
            return value;
        }

        private void ensureCreated(String logicalId) {
            String type = type(logicalId);
            if (!CREATED_TYPES.contains(type)) {
                throw new UnsupportedOperationException(logicalId + " (" + type + ") has no local counterpart, so a"
                        + " locally created resource cannot refer to it");
            }
            if (tableArns.containsKey(logicalId) || queues.containsKey(logicalId) || buses.containsKey(logicalId)) {
                return;
            }
            if (!inProgress.add(logicalId)) {
                throw new IllegalStateException("circular reference through " + logicalId);
            }
            Map<String, Object> properties = properties(logicalId);
            String name = prefix + logicalId;
            switch (type) {
                case TABLE:
                    tableArns.put(logicalId, LocalTable.create(endpoint.dynamoDb(), logicalId, name, properties));
                    break;
                case QUEUE:
                    queues.put(logicalId, LocalQueue.create(endpoint.sqs(), logicalId, name, properties));
                    break;
                default:
                    buses.put(logicalId,
                            LocalBus.create(endpoint.eventBridge(), endpoint.sqs(), logicalId, name, properties));
            }
            inProgress.remove(logicalId);
        }

        private boolean switchedOn(String logicalId) {
            Object condition = resource(logicalId).get("Condition");
            return condition == null || evaluator.condition(String.valueOf(condition));
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> properties(String logicalId) {
            if (!switchedOn(logicalId)) {
                throw new UnsupportedOperationException(logicalId + " is switched off by its Condition");
            }
            Map<?, ?> resource = resource(logicalId);
            Object evaluated = evaluator.evaluate(resource.get("Properties"), logicalId + ".Properties");
            return evaluated == null ? Map.of() : (Map<String, Object>) evaluated;
        }

        private String type(String logicalId) {
            return String.valueOf(resource(logicalId).get("Type"));
        }

        private Map<?, ?> resource(String logicalId) {
            Object resource = resources().get(logicalId);
            if (!(resource instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException("no resource '" + logicalId + "' in the template");
            }
            return map;
        }

        private Map<?, ?> resources() {
            Object resources = template.get("Resources");
            return resources instanceof Map<?, ?> map ? map : Map.of();
        }
    }

    private static Object path(Map<?, ?> root, String... keys) {
        Object current = root;
        for (String key : keys) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(key);
        }
        return current;
    }
}
