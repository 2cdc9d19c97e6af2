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

    /** Every value written for the metric, over all records, in order. */
    static List<Double> values(List<String> lines, String metric) {
        List<Double> values = new ArrayList<>();
        for (JsonNode record : all(lines)) {
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
