package dev.fanin.core.config;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Reads one pipeline mapping, every section of it, then the rules across its sections. */
final class PipelineParser {

    static final List<String> FIELDS = List.of("name", "match", "envelope", "key", "eventId", "eventTime", "window",
            "triggers", "watermark", "allowedLateness", "late", "incomplete", "aggregations", "bounds", "emit", "retention");

    private PipelineParser() {
    }

    /**
     * The pipeline, or null after reporting its problems. Every section is read, and every rule across sections runs
     * on the fields it reads that were read ({@link PipelineRules}), so one pass reports all of them.
     *
     * @param pipeline the pipeline's mapping, whose spot names the pipeline (or {@code pipelines[i]} when it has no
     *                 usable name); the name itself is checked by the loader, which sees all pipelines
     */
    static PipelineConfig parse(Section pipeline, String name, ConfigLoader.Rules rules) {
        int before = pipeline.spot().problems().count();
        pipeline.allowOnly(FIELDS);
        MatchRule match = match(pipeline);
        Envelope envelope = pipeline.choice("envelope", Envelope.class, ConfigDefaults.ENVELOPE);
        List<ValueRef> key = key(pipeline);
        FieldPath defaultEventId = envelope == Envelope.S3 ? FieldPath.parse(ConfigDefaults.S3_EVENT_ID) : null;
        FieldPath eventId = pipeline.path("eventId", defaultEventId);
        EventTimeSpec eventTime = EventTimeParser.parse(pipeline, envelope);
        WindowParser.Read window = window(pipeline);
        TriggerParser.Read triggers = TriggerParser.parse(pipeline);
        WatermarkSpec watermark = PolicyParser.watermark(pipeline);
        Duration allowedLateness = pipeline.duration("allowedLateness", ConfigDefaults.ALLOWED_LATENESS, Values.Sign.NOT_NEGATIVE);
        LatePolicy late = PolicyParser.late(pipeline);
        PolicyParser.IncompleteRead incomplete = PolicyParser.incomplete(pipeline);
        List<AggregationSpec> aggregations = AggregationParser.parse(pipeline);
        PolicyParser.BoundsRead bounds = PolicyParser.bounds(pipeline);
        EmitTarget emit = EmitParser.parse(pipeline);
        Duration retention = pipeline.duration("retention", ConfigDefaults.RETENTION, Values.Sign.POSITIVE);

        Spot spot = pipeline.spot();
        // The out-of-orderness part of the rule is newer than some recorded documents: those keep the rule they met.
        PipelineRules.lifetimeOutlastsWindow(spot, window, triggers, rules == ConfigLoader.Rules.CURRENT ? watermark : null);
        PipelineRules.countsFitBounds(spot, triggers, bounds.maxEventsPerWindow());
        PipelineRules.incompletePolicyKnowsCompleteness(spot, incomplete.mode(), triggers);
        PipelineRules.retentionOutlastsLateness(spot, retention, allowedLateness);
        PipelineRules.windowFitsItsSinks(spot, shape(triggers, bounds, aggregations, emit));

        if (spot.problems().count() != before || name == null) {
            return null;
        }
        return new PipelineConfig(name, match, envelope, key, eventId, eventTime, window.spec(), triggers.spec(), watermark,
                allowedLateness, late, incomplete.spec(), aggregations, bounds.spec(), emit, retention);
    }

    /** What the size budget reads, or null when any of it is missing or broken. */
    private static SizeBudget.Shape shape(TriggerParser.Read triggers, PolicyParser.BoundsRead bounds,
                                          List<AggregationSpec> aggregations, EmitTarget emit) {
        if (triggers == null || triggers.firstMember() == null || bounds.maxKeyLength() == null || aggregations == null || emit == null) {
            return null;
        }
        return new SizeBudget.Shape(bounds.maxKeyLength(), triggers.tracksMembers(), triggers.firstMember(), aggregations, emit);
    }

    private static MatchRule match(Section pipeline) {
        if (!pipeline.has("match")) {
            return MatchRule.always();
        }
        ArrayNode list = pipeline.list("match", "[{path: \"$.source\", equals: \"custom.alerts\"}]");
        if (list == null) {
            return null;
        }
        List<Condition> conditions = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            conditions.add(ConditionParser.condition(pipeline.at("match").index(i), list.get(i)));
        }
        return conditions.contains(null) ? null : new MatchRule(conditions);
    }

    private static List<ValueRef> key(Section pipeline) {
        if (!pipeline.require("key", "list the fields whose values form the group key, e.g. [\"$.account\", \"$.region\"]")) {
            return null;
        }
        ArrayNode list = pipeline.list("key", "[\"$.account\", \"$.region\"]");
        if (list == null) {
            return null;
        }
        if (list.isEmpty()) {
            pipeline.at("key").problem("is empty; list at least one field, e.g. [\"$.account\"]");
            return null;
        }
        List<ValueRef> parts = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            parts.add(ConditionParser.valueRef(pipeline.at("key").index(i), list.get(i)));
        }
        return parts.contains(null) ? null : parts;
    }

    private static WindowParser.Read window(Section pipeline) {
        if (!pipeline.has("window")) {
            return WindowParser.Read.of(ConfigDefaults.WINDOW);
        }
        Section section = pipeline.section("window");
        return section == null ? null : WindowParser.parse(section);
    }
}
