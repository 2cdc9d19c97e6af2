package dev.fanin.core.config;

import dev.fanin.core.text.ExactJson;
import dev.fanin.core.text.SinkText;
import java.util.List;

/**
 * The most bytes a window of a pipeline can take, worked out from its configuration alone, and the load-time rule
 * that they fit where they go: the emitted aggregate in one entry of its emit target, the window's state (its
 * accumulators, completeness and the frozen emission of a claim) in one DynamoDB item beside what the store keeps
 * there. Every count and byte bound used here is enforced where the data is made (intake for keys, ids and numbers;
 * the accumulators for what they list), so a configuration that passes can never make a window too large to close.
 *
 * <p>Bytes are those of the JSON fanin writes ({@link ExactJson#write}), in UTF-8.
 */
public final class SizeBudget {

    /**
     * What the store keeps in a window's head item beside the state: keys, version, status, due time, fence, lease,
     * TTL and the tail of event-id digests (about 2,500 of 17 bytes; the ingest writes a window at most
     * {@code IngestService.MOST_EVENTS_PER_WRITE} of a batch's events at a time, so a batch of 10,000 fits).
     */
    public static final int STORE_RESERVE_BYTES = 49_152;
    /**
     * The fields of an aggregate other than key, pipeline, missing members and aggregations: names, times, numbers, and
     * an operator's note (at most 1,000 characters of at most three bytes each as JSON: {@code AggregateEvent.isNote}).
     */
    static final int FIXED_AGGREGATE_BYTES = 1_024 + 3 * 1_000;
    /** The fields of a window's state other than accumulators, completeness and claim, the absorbed sessions included. */
    static final int FIXED_STATE_BYTES = 1_024 + 100 * 20; // 100: SessionMerge.MAX_ABSORBED_LISTED ids of 17 characters
    /** An event id as JSON: at most 1,024 UTF-8 bytes without control characters, whose escapes at most double it. */
    static final int EVENT_ID_JSON_BYTES = 2 * ConfigDefaults.LONGEST_EVENT_ID_BYTES + 2;
    /** A number fanin writes: at most this many digits, a sign and a point. */
    static final int NUMBER_JSON_BYTES = ExactJson.MAX_SUM_DIGITS + 2;
    /** The wrapper of one aggregation's output or state: its name, kind, counts, flags and punctuation. */
    static final int AGGREGATION_OVERHEAD_BYTES = 128;
    /** The fixed part of one sample: field names, the event time, punctuation and the trimmed flag. */
    static final int SAMPLE_OVERHEAD_BYTES = 96;

    private SizeBudget() {
    }

    /**
     * The fields of a pipeline the sizes depend on, and only those, so that the loader can check them while other
     * fields of the pipeline are broken.
     *
     * @param tracksMembers whether {@code triggers.expected.memberPath} is set
     * @param firstMember   {@code triggers.expected.firstMember} (read only when members are tracked)
     */
    record Shape(int maxKeyLength, boolean tracksMembers, int firstMember, List<AggregationSpec> aggregations, EmitTarget emit) {

        static Shape of(PipelineConfig p) {
            ExpectedSpec expected = p.triggers().expected();
            boolean tracksMembers = expected != null && expected.memberPath() != null;
            return new Shape(p.bounds().maxKeyLength(), tracksMembers, tracksMembers ? expected.firstMember() : 0,
                    p.aggregations(), p.emit());
        }
    }

    /** The largest emitted aggregate of the pipeline (the same JSON is frozen into the state at a claim). */
    public static long aggregateBytes(PipelineConfig p) {
        return aggregateBytes(Shape.of(p));
    }

    /** The largest state of a window of the pipeline: accumulators, completeness, and a claim's frozen aggregate. */
    public static long stateBytes(PipelineConfig p) {
        return stateBytes(Shape.of(p));
    }

    static long aggregateBytes(Shape p) {
        long key = 2L * p.maxKeyLength() + 2;
        long missing = p.tracksMembers() ? (long) ConfigDefaults.MOST_MISSING_LISTED * 12 : 4;
        // The key appears as key and inside aggregateId and corrects, each beside the pipeline's name.
        long bytes = FIXED_AGGREGATE_BYTES + 3 * (key + 100) + missing;
        for (AggregationSpec spec : p.aggregations()) {
            bytes += aggregationBytes(spec);
        }
        return bytes;
    }

    static long stateBytes(Shape p) {
        long bytes = FIXED_STATE_BYTES + completenessBytes(p) + aggregateBytes(p);
        for (AggregationSpec spec : p.aggregations()) {
            // The stored form lists the same ids, values and samples as the output, under shorter names, and the field read.
            bytes += aggregationBytes(spec) + (spec.path() == null ? 0 : 2L * SinkText.utf8Length(spec.path().expression()) + 8);
        }
        return bytes;
    }

    /** One aggregation's output, name and wrapper included. */
    static long aggregationBytes(AggregationSpec spec) {
        long listed;
        if (spec instanceof AggregationSpec.DistinctIds ids) {
            listed = (long) ids.cap() * (Math.min(ids.maxValueBytes(), EVENT_ID_JSON_BYTES) + 1);
        } else if (spec instanceof AggregationSpec.DistinctValues values) {
            listed = (long) values.cap() * (values.maxValueBytes() + 1);
        } else if (spec instanceof AggregationSpec.FirstN first) {
            listed = samplesBytes(first.n(), first.maxValueBytes());
        } else if (spec instanceof AggregationSpec.LastN last) {
            listed = samplesBytes(last.n(), last.maxValueBytes());
        } else if (spec instanceof AggregationSpec.Count) {
            listed = 0;
        } else {
            listed = NUMBER_JSON_BYTES;
        }
        return spec.name().length() + AGGREGATION_OVERHEAD_BYTES + listed;
    }

    private static long samplesBytes(int n, int maxValueBytes) {
        return (long) n * (EVENT_ID_JSON_BYTES + Math.max(maxValueBytes, 4) + SAMPLE_OVERHEAD_BYTES);
    }

    /** The most bytes a window's completeness takes (members tracked, counts, flags) under {@code p}. */
    public static long completenessBytes(PipelineConfig p) {
        return completenessBytes(Shape.of(p));
    }

    /**
     * Members are stored as ranges {@code [a,b]}; members lie in {@code [first, first +
     * ConfigDefaults#MOST_MEMBERS_TRACKED)}, so there are at most half that many ranges.
     */
    private static long completenessBytes(Shape p) {
        if (!p.tracksMembers()) {
            return 128;
        }
        long highest = (long) p.firstMember() + ConfigDefaults.MOST_MEMBERS_TRACKED;
        int digits = Long.toString(highest).length();
        return 128 + (ConfigDefaults.MOST_MEMBERS_TRACKED / 2L) * (2L * digits + 4);
    }

    /**
     * The most bytes the emit target takes for one aggregate: an EventBridge entry less its source and detail type
     * (256 bytes each assumed for {@code ${...}} references, resolved only at cold start), or an SQS message.
     */
    public static long emitLimit(EmitTarget target) {
        if (target instanceof EmitTarget.EventBridge eventBridge) {
            return SinkLimits.EVENTBRIDGE_ENTRY_BYTES - nameBytes(eventBridge.source()) - nameBytes(eventBridge.detailType());
        }
        return SinkLimits.SQS_MESSAGE_BYTES;
    }

    /** The most bytes the state may take in its DynamoDB item. */
    public static long stateLimit() {
        return SinkLimits.DYNAMODB_ITEM_BYTES - STORE_RESERVE_BYTES;
    }

    private static long nameBytes(String name) {
        return name.contains("${") ? 256 : dev.fanin.core.text.SinkText.utf8Length(name);
    }
}
