package dev.fanin.cli.local;

import dev.fanin.testkit.CloudFormationYaml;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the Lambda service would read from {@code template.yaml} to invoke the functions: each SQS event source's
 * batch size and maximum batching window, each function's timeout, and the sweeper's schedule. Values are literals
 * or {@code !Ref} to a parameter (its default); anything else is refused, so a local run never guesses.
 *
 * @param ingest        the ingest function's SQS event source
 * @param timer         the timer function's SQS event source
 * @param sweepTimeout  the sweeper's timeout (the remaining time of its fake context)
 * @param sweepSchedule the sweeper's schedule expression as deployed, e.g. {@code rate(1 minute)}
 */
record FunctionSettingsFromTemplate(EventSource ingest, EventSource timer, Duration sweepTimeout, String sweepSchedule) {

    /** One SQS event source mapping, as Lambda's poller applies it. */
    record EventSource(String function, int batchSize, Duration maxBatchingWindow, Duration functionTimeout) { }

    static final String INGEST = "IngestFunction";
    static final String TIMER = "TimerFunction";
    static final String SWEEPER = "SweeperFunction";

    static FunctionSettingsFromTemplate read(Path template) {
        return from(CloudFormationYaml.read(template));
    }

    static FunctionSettingsFromTemplate from(Map<String, Object> template) {
        Reader reader = new Reader(template);
        return new FunctionSettingsFromTemplate(
                reader.sqsSource(INGEST),
                reader.sqsSource(TIMER),
                Duration.ofSeconds(reader.integer(reader.functionProperty(SWEEPER, "Timeout"), SWEEPER + ".Timeout")),
                reader.string(reader.onlyEvent(SWEEPER, "Schedule").get("Schedule"), SWEEPER + " schedule"));
    }

    /** The schedule as a period when it is a {@code rate(...)} expression, for the message the local run prints. */
    static String describeSchedule(String expression) {
        Matcher rate = Pattern.compile("rate\\((\\d+) (minute|minutes|hour|hours|day|days)\\)").matcher(expression);
        return rate.matches() ? "every " + rate.group(1) + " " + rate.group(2) : expression;
    }

    private record Reader(Map<String, Object> template) {

        EventSource sqsSource(String function) {
            Map<?, ?> properties = onlyEvent(function, "SQS");
            int batchSize = properties.containsKey("BatchSize") ? integer(properties.get("BatchSize"), function + ".BatchSize") : 10;
            int window = properties.containsKey("MaximumBatchingWindowInSeconds")
                    ? integer(properties.get("MaximumBatchingWindowInSeconds"), function + ".MaximumBatchingWindowInSeconds") : 0;
            Object timeout = functionProperty(function, "Timeout");
            int timeoutSeconds = timeout == null ? 3 : integer(timeout, function + ".Timeout");
            return new EventSource(function, batchSize, Duration.ofSeconds(window), Duration.ofSeconds(timeoutSeconds));
        }

        Object functionProperty(String function, String name) {
            Object value = map(resource(function).get("Properties"), function + ".Properties").get(name);
            if (value == null) {
                value = path("Globals", "Function", name);
            }
            return value;
        }

        /**
         * The properties of the function's one event of {@code type} that sends the source's own event: one with an
         * {@code Input} of its own (the sweeper's hourly run over every shard) is not what a local run follows.
         */
        Map<?, ?> onlyEvent(String function, String type) {
            Map<?, ?> events = map(map(resource(function).get("Properties"), function).get("Events"), function + ".Events");
            List<Map<?, ?>> matching = events.values().stream()
                    .<Map<?, ?>>map(e -> map(e, function + ".Events"))
                    .filter(e -> type.equals(e.get("Type")))
                    .filter(e -> !(e.get("Properties") instanceof Map<?, ?> p && p.containsKey("Input")))
                    .toList();
            if (matching.size() != 1) {
                throw new IllegalStateException("template.yaml: " + function + " should have exactly one " + type
                        + " event, has " + matching.size());
            }
            return map(matching.get(0).get("Properties"), function + " " + type + " event");
        }

        Map<?, ?> resource(String logicalId) {
            Object resource = map(template.get("Resources"), "Resources").get(logicalId);
            if (resource == null) {
                throw new IllegalStateException("template.yaml has no resource " + logicalId);
            }
            return map(resource, logicalId);
        }

        int integer(Object value, String at) {
            String text = string(value, at);
            try {
                return Integer.parseInt(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalStateException("template.yaml: " + at + " should be a whole number, is \"" + text + "\"");
            }
        }

        /** A literal, or {@code Ref} to a parameter (its Default). */
        String string(Object value, String at) {
            if (value instanceof Map<?, ?> intrinsic && intrinsic.size() == 1 && intrinsic.containsKey("Ref")) {
                String parameter = String.valueOf(intrinsic.get("Ref"));
                Object definition = map(template.get("Parameters"), "Parameters").get(parameter);
                Object fallback = definition == null ? null : map(definition, parameter).get("Default");
                if (fallback == null) {
                    throw new IllegalStateException("template.yaml: " + at + " refers to " + parameter
                            + ", which is not a parameter with a Default");
                }
                return String.valueOf(fallback);
            }
            if (value == null || value instanceof Map<?, ?> || value instanceof List<?>) {
                throw new IllegalStateException("template.yaml: " + at + " should be a literal or a Ref to a parameter, is " + value);
            }
            return String.valueOf(value);
        }

        private Object path(String... keys) {
            Object current = template;
            for (String key : keys) {
                if (!(current instanceof Map<?, ?> m)) {
                    return null;
                }
                current = m.get(key);
            }
            return current;
        }

        private static Map<?, ?> map(Object value, String at) {
            if (value == null) {
                return Map.of();
            }
            if (!(value instanceof Map<?, ?> m)) {
                throw new IllegalStateException("template.yaml: " + at + " should be a mapping");
            }
            return m;
        }
    }
}
