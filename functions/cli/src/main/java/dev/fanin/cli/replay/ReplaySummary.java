package dev.fanin.cli.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a replay produced, read back from its output files: {@code summary.json} (counts by outcome) and the
 * readable report, one line per aggregate revision in the order of its first emission.
 */
final class ReplaySummary {

    static final String FILE_NAME = "summary.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final List<JsonNode> emissions;
    private final List<JsonNode> late;
    private final List<JsonNode> deadLetters;
    private final ReplayState state;
    private final int traceMessages;

    ReplaySummary(OutputFiles outputs, ReplayState state, int traceMessages) {
        this.emissions = parse(outputs.lines(OutputFiles.AGGREGATES));
        this.late = parse(outputs.lines(OutputFiles.LATE));
        this.deadLetters = parse(outputs.lines(OutputFiles.DEAD_LETTERS));
        this.state = state;
        this.traceMessages = traceMessages;
    }

    /** The first emission of each aggregate id, in emission order. */
    Map<String, JsonNode> distinctAggregates() {
        Map<String, JsonNode> distinct = new LinkedHashMap<>();
        for (JsonNode e : emissions) {
            distinct.putIfAbsent(e.path("aggregateId").asText(), e);
        }
        return distinct;
    }

    ObjectNode toJson() {
        ObjectNode json = JSON.createObjectNode();
        json.put("traceMessages", traceMessages);
        Map<String, JsonNode> distinct = distinctAggregates();
        ObjectNode aggregates = json.putObject("aggregates");
        aggregates.put("emissions", emissions.size());
        aggregates.put("distinct", distinct.size());
        aggregates.put("reEmissions", emissions.size() - distinct.size());
        aggregates.put("complete", distinct.values().stream().filter(a -> a.path("complete").asBoolean()).count());
        aggregates.put("incomplete", distinct.values().stream().filter(a -> !a.path("complete").asBoolean()).count());
        aggregates.put("corrections", distinct.values().stream().filter(a -> a.path("revision").asInt() > 0).count());
        aggregates.set("byCloseReason", JSON.valueToTree(countBy(new ArrayList<>(distinct.values()), "closeReason")));
        ObjectNode lateJson = json.putObject("late");
        lateJson.put("total", late.size());
        lateJson.set("byKind", JSON.valueToTree(countBy(late, "kind")));
        lateJson.set("byReasonCode", JSON.valueToTree(countBy(late, "reasonCode")));
        ObjectNode dead = json.putObject("deadLetters");
        dead.put("total", deadLetters.size());
        dead.set("byReasonCode", JSON.valueToTree(countBy(deadLetters, "reasonCode")));
        json.set("run", JSON.valueToTree(new TreeMap<>(state.counters)));
        json.put("invocations", state.invocations);
        json.put("resourcesPrefix", state.prefix);
        return json;
    }

    void write(Path file) {
        try {
            JSON.writeValue(file.toFile(), toJson());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The readable report: one line per aggregate revision, then one line of totals. */
    List<String> report() {
        List<String> lines = new ArrayList<>();
        for (JsonNode a : distinctAggregates().values()) {
            lines.add(line(a));
        }
        ObjectNode json = toJson();
        lines.add(String.format("%d aggregates (%d emissions), %d corrections, %d incomplete; %d late records; %d dead letters;"
                        + " %d invocations, %d crashes injected, %d redeliveries; %d windows open at the end",
                json.path("aggregates").path("distinct").asLong(), json.path("aggregates").path("emissions").asLong(),
                json.path("aggregates").path("corrections").asLong(), json.path("aggregates").path("incomplete").asLong(),
                late.size(), deadLetters.size(), state.invocations, state.counter("crashesInjected"),
                state.counter("messagesRedelivered"), state.counter("openWindowsAtEnd")));
        return lines;
    }

    static String line(JsonNode a) {
        StringBuilder s = new StringBuilder();
        s.append(a.path("pipeline").asText()).append("  ").append(a.path("key").asText())
                .append("  [").append(a.path("window").path("start").asText()).append(", ")
                .append(a.path("window").path("end").asText()).append(")")
                .append("  r").append(a.path("revision").asInt())
                .append("  ").append(a.path("closeReason").asText())
                .append("  ").append(a.path("complete").asBoolean() ? "complete" : "INCOMPLETE");
        if (!a.path("missing").isNull() && a.path("missing").size() > 0) {
            s.append(" missing ").append(a.path("missing"));
        }
        s.append("  seen=").append(a.path("seen").asLong());
        if (!a.path("expected").isNull()) {
            s.append("/").append(a.path("expected").asInt());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = a.path("aggregations").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode v = f.getValue();
            s.append(' ').append(f.getKey()).append('=')
                    .append(value(v));
        }
        return s.toString();
    }

    /** Numbers as they are; value sets and sample lists by their size. */
    private static String value(JsonNode v) {
        if (v.isObject() && v.path("values").isArray()) {
            return v.path("values").size() + (v.path("truncated").asBoolean() ? "+" : "") + " values";
        }
        if (v.isArray()) {
            return v.size() + " samples";
        }
        if (v.isObject() && v.has("value")) {
            return v.path("value").asText();
        }
        return v.asText();
    }

    /**
     * The figures of an aggregate that its documented expectation pins: {@code seen}, then each aggregation that is
     * a number ({@code count}), has a {@code value} (sum, min, max) or a value set (its size).
     */
    static Map<String, Long> counts(JsonNode aggregate) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("seen", aggregate.path("seen").asLong());
        for (Iterator<Map.Entry<String, JsonNode>> it = aggregate.path("aggregations").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode v = f.getValue();
            if (v.isNumber()) {
                counts.put(f.getKey(), v.asLong());
            } else if (v.isObject() && v.path("value").isNumber()) {
                counts.put(f.getKey(), v.path("value").asLong());
            } else if (v.isObject() && v.path("values").isArray()) {
                counts.put(f.getKey(), (long) v.path("values").size());
            }
        }
        return counts;
    }

    private static Map<String, Long> countBy(List<JsonNode> records, String field) {
        Map<String, Long> counts = new TreeMap<>();
        for (JsonNode r : records) {
            counts.merge(r.path(field).asText("?"), 1L, Long::sum);
        }
        return counts;
    }

    private static List<JsonNode> parse(List<String> lines) {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : lines) {
            try {
                nodes.add(JSON.readTree(line));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("not a JSON line in the replay output: " + line, e);
            }
        }
        return nodes;
    }
}
