package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The template as CloudFormation receives it from {@code sam deploy}: packaged and put through the SAM transform by
 * {@code infra/deploy/translate.py} (aws-sam-translator, as shipped with cfn-lint). cfn-lint must find nothing in the
 * translated template, and a redeploy that changes what a function runs must publish a new version of it: SAM names
 * a version from the code and the unresolved properties only (serverless-application-model #1640, #3820), so each
 * function's {@code VersionDescription} spells out the parameters that reach it, and a changed description is a
 * replaced, i.e. newly published, version. (A parameter that reaches a function only through a resource's name,
 * {@code WindowTableName} through the table's, is not in it: no description has room for it, and changing it on a
 * deployed stack breaks the functions; the template and the README say never to.)
 */
class TranslatedTemplateTest {

    private static final Path ROOT = TemplateResources.locateTemplate().toAbsolutePath().getParent();
    private static final Map<String, Object> TEMPLATE = CloudFormationYaml.read(ROOT.resolve("template.yaml"));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> FUNCTIONS = List.of("IngestFunction", "TimerFunction", "SweeperFunction");

    /** Valid other values for the string parameters without AllowedValues. */
    private static final Map<String, String> OTHER_STRINGS = Map.of(
            "PipelineConfigLocation", "file:/opt/fanin/pipelines.yaml",
            "EmitQueueUrl", "https://sqs.eu-west-1.amazonaws.com/123456789012/aggregates");

    @Test
    void theTranslatedTemplateHasNoLintFindings(@TempDir Path directory) {
        Path translated = directory.resolve("translated.json");
        translate(List.of("--code-key", "code-1", "--out", translated.toString()));
        ToolRun.of(List.of("cfn-lint", "--", translated.toString()), ROOT, Duration.ofSeconds(120)).succeeded();
    }

    @Test
    void changingAParameterThatReachesAFunctionPublishesANewVersionOfIt() {
        Map<String, Set<String>> reaching = parametersReachingEachFunction();
        assertThat(reaching.get("IngestFunction")).contains("PipelineConfigLocation", "IngestTimeout", "FunctionMemorySize",
                "EnableSnapStart", "LogLevel");
        List<String> checked = new ArrayList<>(new TreeSet<>(reaching.values().stream().flatMap(Set::stream).toList()));
        List<Map<String, String>> runs = new ArrayList<>(List.of(Map.of()));
        checked.forEach(parameter -> runs.add(Map.of(parameter, otherValue(parameter))));
        List<Map<String, JsonNode>> results = versions(runs, "code-1");
        Map<String, JsonNode> defaults = results.get(0);
        assertThat(defaults.keySet()).containsExactlyInAnyOrderElementsOf(FUNCTIONS);

        List<String> unpublished = new ArrayList<>();
        for (int i = 0; i < checked.size(); i++) {
            String parameter = checked.get(i);
            Map<String, JsonNode> changed = results.get(i + 1);
            for (String function : FUNCTIONS) {
                boolean reaches = reaching.get(function).contains(parameter);
                boolean published = !changed.get(function).equals(defaults.get(function));
                if (reaches && !published) {
                    unpublished.add(parameter + " -> " + function);
                }
                if (!reaches) {
                    assertThat(published).as(parameter + " does not reach " + function + ": no version").isFalse();
                }
            }
        }
        assertThat(unpublished).as("parameters that change a function without publishing a version of it").isEmpty();
    }

    @Test
    void aParameterOnlyTheEventSourceReadsAndAnUnchangedRedeployPublishNothing() {
        List<Map<String, JsonNode>> results = versions(List.of(Map.of(), Map.of(), Map.of("IngestBatchSize", "5")), "code-1");
        assertThat(results.get(1)).isEqualTo(results.get(0));
        assertThat(results.get(2)).isEqualTo(results.get(0));
    }

    @Test
    void newCodePublishesANewVersionOfEveryFunction() {
        Map<String, JsonNode> before = versions(List.of(Map.of()), "code-1").get(0);
        Map<String, JsonNode> after = versions(List.of(Map.of()), "code-2").get(0);
        for (String function : FUNCTIONS) {
            assertThat(after.get(function).path("version")).as(function).isNotEqualTo(before.get(function).path("version"));
        }
    }

    @Test
    void theLongestVersionDescriptionTheParametersAllowFitsLambdasLimit() {
        Map<String, String> longest = new LinkedHashMap<>();
        parameters().forEach((name, definition) -> {
            Map<String, Object> p = map(definition);
            if (p.get("MaxLength") instanceof Number max) {
                longest.put(name, "x".repeat(max.intValue()));
            } else if (p.get("MaxValue") instanceof Number max) {
                longest.put(name, String.valueOf(max.intValue()));
            } else if (p.get("AllowedValues") instanceof List<?> values) {
                longest.put(name, values.stream().map(String::valueOf).reduce((a, b) -> a.length() >= b.length() ? a : b).orElse(""));
            }
        });
        for (String function : FUNCTIONS) {
            String description = String.valueOf(map(map(resource(function).get("Properties")).get("VersionDescription")).get("Fn::Sub"));
            Matcher reference = Pattern.compile("\\$\\{(\\w+)}").matcher(description);
            StringBuilder resolved = new StringBuilder();
            while (reference.find()) {
                assertThat(longest).as(function + ": ${" + reference.group(1) + "} needs a MaxLength, MaxValue or AllowedValues")
                        .containsKey(reference.group(1));
                reference.appendReplacement(resolved, longest.get(reference.group(1)));
            }
            reference.appendTail(resolved);
            assertThat(resolved.length()).as(function + " version description at its longest").isLessThanOrEqualTo(256);
        }
    }

    private static String otherValue(String parameter) {
        Map<String, Object> p = map(parameters().get(parameter));
        String current = String.valueOf(p.getOrDefault("Default", ""));
        if (p.get("AllowedValues") instanceof List<?> values) {
            return values.stream().map(String::valueOf).filter(v -> !v.equals(current)).findFirst().orElseThrow();
        }
        if ("Number".equals(p.get("Type"))) {
            long value = Long.parseLong(current) + 1;
            return String.valueOf(p.get("MaxValue") instanceof Number max && value > max.longValue() ? value - 2 : value);
        }
        assertThat(OTHER_STRINGS).as("an other valid value for parameter " + parameter).containsKey(parameter);
        return OTHER_STRINGS.get(parameter);
    }

    /**
     * The parameters each function's own properties (Globals included, event sources not: a change there reaches the
     * event source mapping, which invokes the alias) refer to, directly or through a condition.
     */
    private static Map<String, Set<String>> parametersReachingEachFunction() {
        Map<String, Set<String>> reaching = new TreeMap<>();
        Object globals = map(TEMPLATE.get("Globals")).get("Function");
        for (String function : FUNCTIONS) {
            Map<String, Object> properties = new LinkedHashMap<>(map(resource(function).get("Properties")));
            properties.remove("Events");
            properties.remove("VersionDescription"); // what is checked, not what the function runs
            Set<String> found = new TreeSet<>();
            collectParameters(globals, found);
            collectParameters(properties, found);
            reaching.put(function, found);
        }
        return reaching;
    }

    private static void collectParameters(Object node, Set<String> into) {
        if (node instanceof Map<?, ?> m) {
            m.forEach((key, value) -> {
                if ("Ref".equals(key) && parameters().containsKey(String.valueOf(value))) {
                    into.add(String.valueOf(value));
                } else if (("Fn::If".equals(key) || "Condition".equals(key)) && value != null) {
                    Object condition = value instanceof List<?> l ? l.get(0) : value;
                    collectParameters(map(TEMPLATE.get("Conditions")).get(String.valueOf(condition)), into);
                }
                if ("Fn::Sub".equals(key)) {
                    Matcher reference = Pattern.compile("\\$\\{(\\w+)}").matcher(String.valueOf(value instanceof List<?> l ? l.get(0) : value));
                    while (reference.find()) {
                        if (parameters().containsKey(reference.group(1))) {
                            into.add(reference.group(1));
                        }
                    }
                }
                collectParameters(value, into);
            });
        } else if (node instanceof List<?> list) {
            list.forEach(item -> collectParameters(item, into));
        }
    }

    /** The versions of each function after a deploy with each of {@code parameterSets}, in one translator run. */
    private static List<Map<String, JsonNode>> versions(List<Map<String, String>> parameterSets, String codeKey) {
        List<Map<String, Object>> runs = parameterSets.stream().<Map<String, Object>>map(p -> Map.of("params", p, "codeKey", codeKey)).toList();
        try {
            String output = ToolRun.of(List.of("python3", "infra/deploy/translate.py", "template.yaml", "--versions-matrix"), ROOT,
                    Duration.ofSeconds(300), JSON.writeValueAsString(runs)).succeeded();
            List<Map<String, JsonNode>> results = new ArrayList<>();
            for (JsonNode run : JSON.readTree(output)) {
                Map<String, JsonNode> versions = new TreeMap<>();
                run.fields().forEachRemaining(e -> versions.put(e.getKey(), e.getValue()));
                results.add(versions);
            }
            assertThat(results).hasSameSizeAs(parameterSets);
            return results;
        } catch (IOException e) {
            throw new AssertionError("translate.py printed no JSON", e);
        }
    }

    private static String translate(List<String> arguments) {
        List<String> command = new ArrayList<>(List.of("python3", "infra/deploy/translate.py", "template.yaml"));
        command.addAll(arguments);
        return ToolRun.of(command, ROOT, Duration.ofSeconds(120)).succeeded();
    }

    private static Map<String, Object> parameters() {
        return map(TEMPLATE.get("Parameters"));
    }

    private static Map<String, Object> resource(String logicalId) {
        return map(map(TEMPLATE.get("Resources")).get(logicalId));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }
}
