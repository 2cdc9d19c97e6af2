package dev.fanin.cli.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.watermark.Watermarks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the timeline draws, per pipeline: the trace's events as intake reads them (event time and arrival), the
 * aggregates emitted (with their processing times), the side output's late events, and the watermark's progress as
 * the functions compute it from the arrivals (newest event time seen minus {@code watermark.outOfOrderness}; the
 * idle advance is not drawn).
 */
record TimelineFacts(String pipeline, List<Arrival> arrivals, List<JsonNode> aggregates, List<JsonNode> late, List<Step> watermark) {

    /** One event: its key, its event time and when its message arrived (processing time). */
    record Arrival(String key, Instant eventTime, Instant at) { }

    /** The watermark from {@code at} on. */
    record Step(Instant at, Instant watermark) { }

    private static final ObjectMapper JSON = new ObjectMapper();

    static Map<String, TimelineFacts> of(FaninConfig config, List<TraceMessage> trace, Collection<JsonNode> aggregates, List<String> lateLines) {
        Map<String, List<Arrival>> arrivals = new TreeMap<>();
        MessageIntake intake = new MessageIntake(config);
        for (TraceMessage m : trace) {
            for (Event e : intake.parse(SqsDeliveries.inbound(m.messageId(), m.body(), m.attributes(), m.at())).accepted()) {
                arrivals.computeIfAbsent(e.pipeline(), p -> new ArrayList<>()).add(new Arrival(e.key(), e.eventTime(), m.at()));
            }
        }
        Map<String, List<JsonNode>> emitted = group(aggregates);
        Map<String, List<JsonNode>> late = group(lateLines.stream().map(TimelineFacts::parse).filter(r -> r != null && r.hasNonNull("eventTime")).toList());
        Map<String, TimelineFacts> facts = new TreeMap<>();
        for (PipelineConfig p : config.pipelines()) {
            List<Arrival> a = arrivals.getOrDefault(p.name(), List.of());
            List<JsonNode> e = emitted.getOrDefault(p.name(), List.of());
            if (!a.isEmpty() || !e.isEmpty()) {
                facts.put(p.name(), new TimelineFacts(p.name(), a, e, late.getOrDefault(p.name(), List.of()), watermark(p, a)));
            }
        }
        return facts;
    }

    private static Map<String, List<JsonNode>> group(Collection<JsonNode> records) {
        Map<String, List<JsonNode>> by = new TreeMap<>();
        records.stream().sorted(Comparator.comparing((JsonNode r) -> r.path("key").asText()).thenComparing(r -> r.path("revision").asInt()))
                .forEach(r -> by.computeIfAbsent(r.path("pipeline").asText(), p -> new ArrayList<>()).add(r));
        return by;
    }

    private static List<Step> watermark(PipelineConfig p, List<Arrival> arrivals) {
        List<Arrival> byArrival = arrivals.stream().sorted(Comparator.comparing(Arrival::at)).toList();
        List<Step> steps = new ArrayList<>();
        Instant newest = null;
        for (Arrival a : byArrival) {
            Instant evidence = Instant.ofEpochMilli(Watermarks.evidenceMillis(a.eventTime().toEpochMilli(), a.at().toEpochMilli()));
            if (newest == null || evidence.isAfter(newest)) {
                newest = evidence;
                steps.add(new Step(a.at(), newest.minus(p.watermark().outOfOrderness())));
            }
        }
        return steps;
    }

    static Instant instant(JsonNode iso) {
        return Instant.parse(iso.asText());
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
