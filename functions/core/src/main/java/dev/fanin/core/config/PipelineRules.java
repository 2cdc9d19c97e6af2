package dev.fanin.core.config;

import java.time.Duration;

/**
 * Rules across sections of one pipeline. Each runs whenever the fields it reads were read, whatever else in the
 * pipeline is broken, so that one pass reports every problem; a null argument means that field is missing or broken
 * and has been reported already, so the rule is skipped (it would only repeat the problem, or guess).
 */
final class PipelineRules {

    private PipelineRules() {
    }

    /**
     * The hard lifetime must outlast the window's own length and the watermark's allowance for disorder, unless a
     * count, expected-count or sentinel trigger can close windows sooner: the watermark passes a window's end only once
     * an event {@code outOfOrderness} later has come, so a shorter lifetime would close on-time windows by
     * {@code maxLifetime} before their own close, and every partial result would be an accident of timing. For a
     * session the length is the gap; for tumbling and sliding windows the size (a window opened at its start needs at
     * least that long to end).
     *
     * @param watermark null when broken (reported already), or for a document recorded under the rule before it read
     *                  the out-of-orderness ({@link ConfigLoader#loadRecorded}): the rule then reads an allowance of zero
     */
    static void lifetimeOutlastsWindow(Spot pipeline, WindowParser.Read window, TriggerParser.Read triggers, WatermarkSpec watermark) {
        if (window == null || window.length() == null || triggers == null || triggers.maxLifetime() == null) {
            return;
        }
        Duration length = window.length();
        Duration allowance = watermark == null ? Duration.ZERO : watermark.outOfOrderness();
        Duration least = length.plus(allowance);
        if (!triggers.closesEarly() && triggers.maxLifetime().compareTo(least) <= 0) {
            String bound = window.lengthField() + " \"" + Durations.format(length) + "\""
                    + (allowance.isZero() ? "" : " plus watermark.outOfOrderness \"" + Durations.format(allowance) + "\"");
            pipeline.child("triggers").child("maxLifetime").problem("\"" + Durations.format(triggers.maxLifetime())
                    + "\" is not longer than " + bound + " and no count, expected or sentinel trigger can close a window sooner,"
                    + " so windows would close by maxLifetime before the watermark passes their end; make it longer than \""
                    + Durations.format(least) + "\" or add a trigger");
        }
    }

    /** A count the window can never hold can never fire. */
    static void countsFitBounds(Spot pipeline, TriggerParser.Read triggers, Integer maxEventsPerWindow) {
        if (triggers == null || maxEventsPerWindow == null) {
            return;
        }
        int most = maxEventsPerWindow;
        if (triggers.count() != null && triggers.count() > most) {
            pipeline.child("triggers").child("count").problem("is " + triggers.count()
                    + ", more than bounds.maxEventsPerWindow " + most + ", so it could never fire; lower it or raise the bound");
        }
        if (triggers.expectedCount() != null && triggers.expectedCount() > most) {
            pipeline.child("triggers").child("expected").child("count").problem("is " + triggers.expectedCount()
                    + ", more than bounds.maxEventsPerWindow " + most + ", so a window could never be complete; lower it or raise the bound");
        }
    }

    /** Holding or reconciling needs to know what complete means. */
    static void incompletePolicyKnowsCompleteness(Spot pipeline, IncompletePolicy.Mode mode, TriggerParser.Read triggers) {
        if (mode == null || triggers == null || mode == IncompletePolicy.Mode.FIRE_PARTIAL) {
            return;
        }
        if (!triggers.knowsCompleteness()) {
            pipeline.child("incomplete").child("policy").problem("is " + Values.yamlName(mode)
                    + ", but this pipeline has no way to know a window is complete; add triggers.expected or triggers.sentinel, or use policy: fire-partial");
        }
    }

    /**
     * A window whose aggregate does not fit its emit target, or whose state does not fit its DynamoDB item, could never
     * close: its claim or its emission would fail every time. The bounds of the configuration fix both sizes
     * ({@link SizeBudget}); they must fit.
     */
    static void windowFitsItsSinks(Spot pipeline, SizeBudget.Shape p) {
        if (p == null) {
            return;
        }
        long aggregate = SizeBudget.aggregateBytes(p);
        long emitLimit = SizeBudget.emitLimit(p.emit());
        String target = p.emit() instanceof EmitTarget.Sqs ? "an SQS message" : "an EventBridge entry";
        if (aggregate > emitLimit) {
            pipeline.child("aggregations").problem("can make an aggregate of up to " + aggregate + " bytes, more than the " + emitLimit
                    + " bytes " + target + " takes here; " + largest(p));
        }
        long state = SizeBudget.stateBytes(p);
        if (aggregate <= emitLimit && state > SizeBudget.stateLimit()) {
            pipeline.child("aggregations").problem("can make a window state of up to " + state + " bytes (accumulators, member "
                    + "completeness and the frozen aggregate of a claim), more than the " + SizeBudget.stateLimit()
                    + " bytes a DynamoDB item leaves for it; " + largest(p));
        }
    }

    /** The fix: the aggregation that can take the most, and the fields that bound it. */
    private static String largest(SizeBudget.Shape p) {
        int at = -1;
        long most = -1;
        for (int i = 0; i < p.aggregations().size(); i++) {
            long bytes = SizeBudget.aggregationBytes(p.aggregations().get(i));
            if (bytes > most) {
                most = bytes;
                at = i;
            }
        }
        if (at < 0) {
            return "lower bounds.maxKeyLength";
        }
        AggregationSpec spec = p.aggregations().get(at);
        String fields = spec instanceof AggregationSpec.FirstN || spec instanceof AggregationSpec.LastN ? "n or maxValueBytes"
                : spec instanceof AggregationSpec.DistinctIds || spec instanceof AggregationSpec.DistinctValues ? "cap or maxValueBytes"
                : "bounds.maxKeyLength";
        return "the largest is aggregations[" + at + "] \"" + spec.name() + "\" with up to " + most + " bytes: lower its " + fields;
    }

    /** A window deleted while late events may still correct it would be opened again and fire twice. */
    static void retentionOutlastsLateness(Spot pipeline, Duration retention, Duration allowedLateness) {
        if (retention == null || allowedLateness == null) {
            return;
        }
        if (retention.compareTo(allowedLateness) <= 0) {
            pipeline.child("retention").problem("\"" + Durations.format(retention) + "\" is not longer than allowedLateness \""
                    + Durations.format(allowedLateness) + "\"; a late event could find its window deleted and fire it a second time, so keep windows longer");
        }
    }
}
