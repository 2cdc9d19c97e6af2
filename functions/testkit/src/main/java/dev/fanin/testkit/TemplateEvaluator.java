package dev.fanin.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluates the intrinsic functions of a template (long form, as {@link CloudFormationYaml} produces) against
 * parameter values, the template's Conditions and Mappings, pseudo parameters and the local resources.
 * Supported: Ref, Fn::GetAtt, Fn::Sub, Fn::If, Fn::FindInMap, Fn::Join, Fn::Select, Fn::Split, and in conditions
 * Fn::Equals, Fn::Not, Fn::And, Fn::Or, Condition. Anything else fails, naming where it was found, rather than being
 * passed through unevaluated. {@code AWS::NoValue} removes the key or list element that holds it.
 */
final class TemplateEvaluator {

    /** What Ref and Fn::GetAtt of a resource evaluate to locally (creating the resource if needed). */
    interface ResourceRefs {
        String ref(String logicalId);

        String attribute(String logicalId, String attribute);
    }

    private static final Object NO_VALUE = new Object() {
        @Override
        public String toString() {
            return "AWS::NoValue";
        }
    };
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

    private final Map<String, Object> template;
    private final Map<String, String> parameterOverrides;
    private final Map<String, String> pseudoParameters;
    private final ResourceRefs resources;
    private final Map<String, Boolean> conditions = new HashMap<>();

    TemplateEvaluator(Map<String, Object> template, Map<String, String> parameterOverrides,
            Map<String, String> pseudoParameters, ResourceRefs resources) {
        this.template = template;
        this.parameterOverrides = parameterOverrides;
        this.pseudoParameters = pseudoParameters;
        this.resources = resources;
        parameterOverrides.keySet().forEach(name -> parameterDeclaration(name, "parameter overrides"));
        parameterOverrides.forEach(this::checkAllowed);
    }

    /** The evaluated value; maps and lists come back as new, mutable collections without AWS::NoValue entries. */
    Object evaluate(Object value, String where) {
        Object evaluated = evaluateOrNoValue(value, where);
        return evaluated == NO_VALUE ? null : evaluated;
    }

    /** The evaluated value as a string (numbers and booleans as CloudFormation would render them). */
    String evaluateString(Object value, String where) {
        return scalar(evaluate(value, where), where);
    }

    boolean condition(String name) {
        Boolean known = conditions.get(name);
        if (known != null) {
            return known;
        }
        Object definition = section("Conditions").get(name);
        if (definition == null) {
            throw new IllegalArgumentException("unknown condition '" + name + "'");
        }
        boolean value = evaluateCondition(definition, "Conditions." + name);
        conditions.put(name, value);
        return value;
    }

    private Object evaluateOrNoValue(Object value, String where) {
        if (value instanceof Map<?, ?> map) {
            if (map.size() == 1) {
                String key = String.valueOf(map.keySet().iterator().next());
                if (key.equals("Ref") || key.startsWith("Fn::")) {
                    return intrinsic(key, map.values().iterator().next(), where);
                }
            }
            Map<String, Object> result = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String key = String.valueOf(entry.getKey());
                Object evaluated = evaluateOrNoValue(entry.getValue(), where + "." + key);
                if (evaluated != NO_VALUE) {
                    result.put(key, evaluated);
                }
            }
            return result;
        }
        if (value instanceof List<?> list) {
            List<Object> result = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                Object evaluated = evaluateOrNoValue(list.get(i), where + "[" + i + "]");
                if (evaluated != NO_VALUE) {
                    result.add(evaluated);
                }
            }
            return result;
        }
        return value;
    }

    private Object intrinsic(String function, Object argument, String where) {
        String at = where + "." + function;
        switch (function) {
            case "Ref":
                return ref(scalar(argument, at), at);
            case "Fn::GetAtt": {
                List<?> parts = argument instanceof String text
                        ? Arrays.asList(text.split("\\.", 2)) : arguments(argument, 2, at);
                return resources.attribute(scalar(parts.get(0), at), scalar(evaluate(parts.get(1), at), at));
            }
            case "Fn::Sub":
                return sub(argument, at);
            case "Fn::If": {
                List<?> parts = arguments(argument, 3, at);
                boolean chosen = condition(scalar(parts.get(0), at));
                return evaluateOrNoValue(parts.get(chosen ? 1 : 2), at);
            }
            case "Fn::FindInMap": {
                List<?> parts = arguments(argument, 3, at);
                return findInMap(evaluateString(parts.get(0), at), evaluateString(parts.get(1), at),
                        evaluateString(parts.get(2), at), at);
            }
            case "Fn::Join": {
                List<?> parts = arguments(argument, 2, at);
                List<String> items = new ArrayList<>();
                for (Object item : asList(evaluate(parts.get(1), at), at)) {
                    items.add(scalar(item, at));
                }
                return String.join(scalar(parts.get(0), at), items);
            }
            case "Fn::Select": {
                List<?> parts = arguments(argument, 2, at);
                List<?> items = asList(evaluate(parts.get(1), at), at);
                int index = Integer.parseInt(evaluateString(parts.get(0), at));
                if (index < 0 || index >= items.size()) {
                    throw new IllegalArgumentException(at + ": index " + index + " out of " + items.size());
                }
                return items.get(index);
            }
            case "Fn::Split": {
                List<?> parts = arguments(argument, 2, at);
                String delimiter = scalar(parts.get(0), at);
                return new ArrayList<>(Arrays.asList(evaluateString(parts.get(1), at).split(Pattern.quote(delimiter), -1)));
            }
            default:
                throw new UnsupportedOperationException(at + ": " + function
                        + " is not supported by the local template evaluator; extend TemplateEvaluator");
        }
    }

    private Object ref(String name, String at) {
        if (name.equals("AWS::NoValue")) {
            return NO_VALUE;
        }
        if (name.startsWith("AWS::")) {
            String pseudo = pseudoParameters.get(name);
            if (pseudo == null) {
                throw new UnsupportedOperationException(at + ": pseudo parameter " + name + " has no local value");
            }
            return pseudo;
        }
        if (section("Parameters").containsKey(name)) {
            return parameter(name, at);
        }
        if (section("Resources").containsKey(name)) {
            return resources.ref(name);
        }
        throw new IllegalArgumentException(at + ": Ref to '" + name + "', which is neither a parameter nor a resource");
    }

    private Object parameter(String name, String at) {
        Map<?, ?> declaration = parameterDeclaration(name, at);
        String value = parameterOverrides.containsKey(name)
                ? parameterOverrides.get(name)
                : declaration.containsKey("Default") ? scalar(declaration.get("Default"), at) : null;
        if (value == null) {
            throw new IllegalArgumentException(at + ": parameter " + name + " has no Default and no override");
        }
        String type = String.valueOf(declaration.get("Type"));
        if (type.equals("CommaDelimitedList") || type.startsWith("List<")) {
            return new ArrayList<>(value.isEmpty() ? List.of() : Arrays.asList(value.split(",", -1)));
        }
        return value;
    }

    private Map<?, ?> parameterDeclaration(String name, String at) {
        Object declaration = section("Parameters").get(name);
        if (!(declaration instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(at + ": no parameter named " + name);
        }
        return map;
    }

    private void checkAllowed(String name, String value) {
        Object allowed = parameterDeclaration(name, "parameter overrides").get("AllowedValues");
        if (allowed instanceof List<?> values && values.stream().map(String::valueOf).noneMatch(value::equals)) {
            throw new IllegalArgumentException("parameter " + name + "=" + value + " is not one of " + values);
        }
    }

    private String sub(Object argument, String at) {
        String text;
        Map<?, ?> variables;
        if (argument instanceof String string) {
            text = string;
            variables = Map.of();
        } else {
            List<?> parts = arguments(argument, 2, at);
            text = scalar(parts.get(0), at);
            if (!(parts.get(1) instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException(at + ": the second argument of Fn::Sub is a mapping");
            }
            variables = map;
        }
        Matcher matcher = SUB_VARIABLE.matcher(text);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            String variable = matcher.group(1).trim();
            String replacement;
            if (variable.startsWith("!")) {
                replacement = "${" + variable.substring(1) + "}";
            } else if (variables.containsKey(variable)) {
                replacement = evaluateString(variables.get(variable), at + "." + variable);
            } else if (variable.contains(".") && !variable.startsWith("AWS::")) {
                String[] parts = variable.split("\\.", 2);
                replacement = resources.attribute(parts[0], parts[1]);
            } else {
                replacement = scalar(ref(variable, at), at);
            }
            matcher.appendReplacement(result, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    private Object findInMap(String mapName, String topKey, String secondKey, String at) {
        Map<?, ?> mapping = asMap(section("Mappings").get(mapName), at + " (mapping " + mapName + ")");
        Map<?, ?> top = asMap(byStringKey(mapping, topKey, at + " (" + mapName + "." + topKey + ")"), at);
        return evaluate(byStringKey(top, secondKey, at + " (" + mapName + "." + topKey + "." + secondKey + ")"), at);
    }

    private static Object byStringKey(Map<?, ?> map, String key, String at) {
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (String.valueOf(entry.getKey()).equals(key)) {
                return entry.getValue();
            }
        }
        throw new IllegalArgumentException(at + ": no such key");
    }

    private boolean evaluateCondition(Object definition, String at) {
        Map<?, ?> map = asMap(definition, at);
        if (map.size() != 1) {
            throw new IllegalArgumentException(at + ": a condition is a single function");
        }
        String function = String.valueOf(map.keySet().iterator().next());
        Object argument = map.values().iterator().next();
        switch (function) {
            case "Fn::Equals": {
                List<?> parts = arguments(argument, 2, at);
                return scalar(evaluate(parts.get(0), at), at).equals(scalar(evaluate(parts.get(1), at), at));
            }
            case "Fn::Not":
                return !evaluateCondition(arguments(argument, 1, at).get(0), at + ".Fn::Not");
            case "Fn::And":
                return asList(argument, at).stream().allMatch(part -> evaluateCondition(part, at + ".Fn::And"));
            case "Fn::Or":
                return asList(argument, at).stream().anyMatch(part -> evaluateCondition(part, at + ".Fn::Or"));
            case "Condition":
                return condition(scalar(argument, at));
            default:
                throw new UnsupportedOperationException(at + ": " + function + " is not a supported condition function");
        }
    }

    private Map<?, ?> section(String name) {
        Object section = template.get(name);
        return section instanceof Map<?, ?> map ? map : Map.of();
    }

    private static List<?> arguments(Object argument, int count, String at) {
        List<?> list = asList(argument, at);
        if (list.size() != count) {
            throw new IllegalArgumentException(at + ": expects " + count + " arguments, got " + list.size());
        }
        return list;
    }

    private static List<?> asList(Object value, String at) {
        if (value instanceof List<?> list) {
            return list;
        }
        throw new IllegalArgumentException(at + ": expected a list, got " + value);
    }

    private static Map<?, ?> asMap(Object value, String at) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new IllegalArgumentException(at + ": expected a mapping, got " + value);
    }

    static String scalar(Object value, String at) {
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        throw new IllegalArgumentException(at + ": expected a string, number or boolean, got " + value);
    }
}
