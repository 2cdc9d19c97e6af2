package dev.fanin.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Reads EMF records (JSON lines with an {@code _aws} member) out of captured output. */
final class EmfRecords {

    private EmfRecords() {
    }

    static List<JsonNode> all(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("{") && l.contains("\"_aws\"")).map(LocalFanin::json).toList();
    }

    /**
     * Every value written for the metric in the records with the service dimension alone (the series the alarms
     * read), in order.
     */
    static List<Double> values(List<String> lines, String metric) {
        return values(lines, metric, "[[\"service\"]]");
    }

    /** Every value written for the metric in the per-pipeline records of {@code pipeline}, in order. */
    static List<Double> pipelineValues(List<String> lines, String metric, String pipeline) {
        return values(all(lines).stream().filter(r -> r.path("pipeline").asText().equals(pipeline)).map(JsonNode::toString).toList(),
                metric, "[[\"service\",\"pipeline\"]]");
    }

    private static List<Double> values(List<String> lines, String metric, String dimensions) {
        List<Double> values = new ArrayList<>();
        for (JsonNode record : all(lines)) {
            if (!record.path("_aws").path("CloudWatchMetrics").get(0).path("Dimensions").toString().equals(dimensions)) {
                continue;
            }
            JsonNode v = record.get(metric);
            if (v == null) {
                continue;
            }
            if (v.isArray()) {
                v.forEach(x -> values.add(x.asDouble()));
            } else {
                values.add(v.asDouble());
            }
        }
        return values;
    }
}
