package dev.fanin.core.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads and validates a fanin configuration (format in docs/CONFIGURATION.md).
 *
 * <p>Pure: {@link #load(String, String)} reads nothing but its argument. The YAML is read into a tree, then every
 * field is checked by hand, so that one run reports every problem, each naming its pipeline, its field, what is wrong
 * and how to fix it. A configuration either loads completely or throws {@link ConfigException}; there is no partial
 * result.
 */
public final class ConfigLoader {

    /** The configuration bundled in the jar, read by the Lambda functions unless told otherwise. */
    public static final String BUNDLED_RESOURCE = "fanin/pipelines.yaml";

    public static final int VERSION = 1;

    private static final Pattern NAME = Pattern.compile("[a-z0-9-]{1,40}");
    private static final Pattern DUPLICATE_FIELD = Pattern.compile("Duplicate field '(.*)'");
    /** Jackson's words for YAML's .inf, -.inf and .nan, which have no exact decimal (see {@link #YAML}). */
    private static final Pattern NOT_FINITE = Pattern.compile("Malformed numeric value '([-+]?\\.(?i:inf|nan))'");
    /** SnakeYAML's words for a [ met inside a flow collection: an unquoted path index, most likely. */
    private static final Pattern FLOW_INDEX = Pattern.compile("while parsing a flow (sequence|mapping): expected ',' or '[]}]', but got \\[");

    /**
     * Duplicate keys are errors (the second would silently win otherwise). An empty plain value ({@code size:}) is
     * null, so it means "absent"; the builder does not enable that by default, unlike {@code new YAMLFactory()}.
     * Numbers are exact decimals with their scale, as intake reads events ({@code 1.50} stays {@code 1.50}, not the
     * double {@code 1.5}), so a number in a condition is the text an event's equal number has. Plain scalars YAML 1.1
     * would turn into other values ({@code NO}, {@code 010}) are read as written ({@link ScalarsAsWritten}).
     */
    private static final ObjectMapper YAML = mapper(new ScalarsAsWritten(factory()));

    /**
     * The parser of documents an earlier fanin accepted and recorded ({@link #loadRecorded}): YAML 1.1 as they were read
     * then ({@code yes} a boolean, {@code 010} a number), otherwise as {@link #YAML}.
     */
    private static final ObjectMapper RECORDED_YAML = mapper(factory().build());

    private static YAMLFactoryBuilder factory() {
        return YAMLFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL);
    }

    private static ObjectMapper mapper(YAMLFactory factory) {
        return YAMLMapper.builder(factory)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .build();
    }

    /** Which rules a document is loaded by. */
    enum Rules {
        /** Today's: every document a user gives fanin to validate, publish or run. */
        CURRENT,
        /**
         * A document the functions ran and recorded (the pipeline history): read as the fanin that accepted it read it,
         * and without the rules made stricter since, so that the windows opened under it still close under it.
         */
        RECORDED
    }

    private ConfigLoader() {
    }

    /**
     * @param yaml   the configuration text
     * @param origin where it came from (a file name), used only in the exception message
     * @throws ConfigException listing every problem found
     */
    public static FaninConfig load(String yaml, String origin) {
        return load(yaml, origin, Rules.CURRENT);
    }

    /**
     * A document the functions ran and recorded (the pipeline history), loaded as the fanin that accepted it loaded it
     * ({@link Rules#RECORDED}): a window opened under it closes under it, also after an upgrade made a rule stricter.
     *
     * @throws ConfigException listing every problem found
     */
    public static FaninConfig loadRecorded(String yaml, String origin) {
        return load(yaml, origin, Rules.RECORDED);
    }

    private static FaninConfig load(String yaml, String origin, Rules rules) {
        Problems problems = new Problems();
        JsonNode root = readYaml(yaml, Spot.root(problems), rules == Rules.CURRENT ? YAML : RECORDED_YAML);
        FaninConfig config = root == null ? null : config(root, problems, rules);
        if (problems.count() > 0 || config == null) {
            throw new ConfigException(origin, problems.all());
        }
        return config;
    }

    /** Reads and loads a file; an unreadable file is reported as a {@link ConfigException} too. */
    public static FaninConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), List.of(new ConfigProblem(null, "", "the file cannot be read: " + e)));
        }
        return load(text, file.toString());
    }

    /** Loads {@link #BUNDLED_RESOURCE} from the classpath. */
    public static FaninConfig loadBundled() {
        try (InputStream in = ConfigLoader.class.getClassLoader().getResourceAsStream(BUNDLED_RESOURCE)) {
            if (in == null) {
                throw new ConfigException(BUNDLED_RESOURCE, List.of(new ConfigProblem(null, "", "the resource is not on the classpath")));
            }
            return load(new String(in.readAllBytes(), StandardCharsets.UTF_8), "classpath:" + BUNDLED_RESOURCE);
        } catch (IOException e) {
            throw new ConfigException(BUNDLED_RESOURCE, List.of(new ConfigProblem(null, "", "the resource cannot be read: " + e)));
        }
    }

    private static JsonNode readYaml(String yaml, Spot root, ObjectMapper mapper) {
        try (JsonParser parser = mapper.createParser(yaml)) {
            JsonNode tree = mapper.readTree(parser);
            if (tree == null || tree.isMissingNode() || tree.isNull()) {
                root.problem("the configuration is empty; start it with \"version: 1\" and a pipelines list");
                return null;
            }
            if (parser.nextToken() != null) {
                root.problem("the file holds more than one YAML document (\"---\"); put every pipeline in one document");
                return null;
            }
            return tree;
        } catch (JsonProcessingException e) {
            root.problem(describe(e));
            return null;
        } catch (IOException e) {
            root.problem("the configuration cannot be read: " + e.getMessage());
            return null;
        }
    }

    private static String describe(JsonProcessingException e) {
        String original = summary(String.valueOf(e.getOriginalMessage()));
        JsonLocation location = e.getLocation();
        String line = location == null || location.getLineNr() < 1 ? "" : "line " + location.getLineNr();
        Matcher duplicate = DUPLICATE_FIELD.matcher(original);
        if (duplicate.find()) {
            return (line.isEmpty() ? "a" : line + ": a") + " field \"" + duplicate.group(1)
                    + "\" appears twice in the same mapping; keep one";
        }
        String where = line.isEmpty() ? "" : " at " + line + ", column " + location.getColumnNr();
        Matcher notFinite = NOT_FINITE.matcher(original);
        if (notFinite.find()) {
            return "the value" + where + " is " + notFinite.group(1) + ", not a finite number; fanin takes finite values only "
                    + "(a duration such as maxLifetime must be finite so that every window closes: use e.g. \"15m\")";
        }
        String hint = FLOW_INDEX.matcher(original).find()
                ? "; a path with [ ] inside [...] or {...} must be quoted, e.g. '$.items[0].id' (in flow style [ and ] are YAML's own)"
                : "";
        return "the file is not valid YAML" + where + ": " + original + hint;
    }

    /**
     * SnakeYAML messages span several lines: the context, a location, a snippet with a caret, then the problem.
     * Keep the context and the problem, which together say what is wrong; the line and column are given apart.
     */
    private static String summary(String message) {
        List<String> parts = new ArrayList<>();
        for (String line : message.lines().toList()) {
            boolean detail = line.isBlank() || Character.isWhitespace(line.charAt(0)) || line.startsWith("in 'reader'");
            if (!detail) {
                parts.add(line.strip());
            }
        }
        return parts.isEmpty() ? message.strip() : String.join(": ", parts);
    }

    private static FaninConfig config(JsonNode root, Problems problems, Rules rules) {
        Spot top = Spot.root(problems);
        if (!root.isObject()) {
            top.problem("the configuration must be a mapping with version and pipelines, not " + Values.kind(root));
            return null;
        }
        Section file = Section.of(top, root);
        file.allowOnly(List.of("version", "pipelines"));
        if (file.require("version", "start the file with \"version: 1\"")) {
            JsonNode version = file.get("version");
            if (!version.isIntegralNumber() || !version.canConvertToInt() || version.intValue() != VERSION) {
                String shown = version.isTextual() ? "\"" + version.textValue() + "\"" : version.isValueNode() ? version.asText() : Values.kind(version);
                file.at("version").problem("is " + shown + "; this fanin reads version 1 only, so write \"version: 1\"");
            }
        }
        if (!file.require("pipelines", "declare at least one pipeline under pipelines:")) {
            return null;
        }
        ArrayNode list = file.list("pipelines", "[{name: uploads, ...}]");
        if (list == null) {
            return null;
        }
        if (list.isEmpty()) {
            file.at("pipelines").problem("is empty; declare at least one pipeline");
            return null;
        }
        List<PipelineConfig> pipelines = new ArrayList<>();
        Map<String, Integer> firstIndexByName = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Spot indexed = file.at("pipelines").index(i);
            Section raw = Section.of(indexed, list.get(i));
            if (raw == null) {
                names.add(null);
                continue;
            }
            String name = name(raw, i, firstIndexByName);
            names.add(name);
            Section pipeline = name == null ? raw : Section.of(new Spot(name, "", problems), list.get(i));
            pipelines.add(PipelineParser.parse(pipeline, name, rules));
        }
        checkShadowing(list, names, problems);
        return pipelines.contains(null) ? null : new FaninConfig(VERSION, pipelines);
    }

    /**
     * The pipeline's name, checked and unique; null when it cannot name the pipeline in messages (missing or not
     * text). An ill-formed or duplicate name is reported but still used to name the pipeline.
     */
    private static String name(Section raw, int index, Map<String, Integer> firstIndexByName) {
        if (!raw.require("name", "give every pipeline a name, e.g. \"file-uploads\"")) {
            return null;
        }
        String name = raw.text("name", null);
        if (name == null) {
            return null;
        }
        Spot named = new Spot(name, "name", raw.spot().problems());
        if (!NAME.matcher(name).matches()) {
            named.problem("\"" + name + "\" is not a valid name; use 1 to 40 lower-case letters, digits and '-', e.g. \"file-uploads\"");
        }
        Integer first = firstIndexByName.putIfAbsent(name, index);
        if (first != null) {
            named.problem("\"" + name + "\" is also the name of pipelines[" + first + "]; pipeline names must be unique");
        }
        return name;
    }

    /** Pipelines are tried in order and the first match wins, so a pipeline matching everything must be last. */
    private static void checkShadowing(ArrayNode list, List<String> names, Problems problems) {
        for (int i = 0; i < list.size() - 1; i++) {
            JsonNode pipeline = list.get(i);
            if (!pipeline.isObject()) {
                continue;
            }
            JsonNode match = pipeline.get("match");
            boolean matchesEverything = match == null || match.isNull() || match.isArray() && match.isEmpty();
            if (!matchesEverything) {
                continue;
            }
            List<String> later = new ArrayList<>();
            for (int j = i + 1; j < names.size(); j++) {
                later.add(names.get(j) == null ? "pipelines[" + j + "]" : "\"" + names.get(j) + "\"");
            }
            Spot spot = names.get(i) == null ? new Spot(null, "pipelines[" + i + "].match", problems) : new Spot(names.get(i), "match", problems);
            spot.problem("has no conditions, so this pipeline takes every message and " + String.join(", ", later)
                    + " after it would never receive one; add a condition or move this pipeline last");
        }
    }
}
