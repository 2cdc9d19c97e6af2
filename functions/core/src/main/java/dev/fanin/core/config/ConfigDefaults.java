package dev.fanin.core.config;

import java.time.Duration;
import java.util.List;

/**
 * The value of every optional configuration field left out, in one place; docs/CONFIGURATION.md lists the same
 * values. Every field has a default except a pipeline's {@code name}, {@code key} and {@code triggers.maxLifetime}.
 */
public final class ConfigDefaults {

    public static final Envelope ENVELOPE = Envelope.RAW;

    /**
     * The default event id of an S3 record. S3 notifications put several records in one SQS message, so the message
     * id cannot tell records apart; the object key counts an object once per window however often it is uploaded (a
     * re-upload replaces the object) or S3 notifies it. To count every upload, key the window by object and set
     * {@code eventId: $.s3.object.sequencer}.
     */
    public static final String S3_EVENT_ID = "$.s3.object.key";

    /** Default event-time paths by envelope: each envelope's own timestamp; a raw body has none (SQS sent time). */
    public static final String EVENTBRIDGE_EVENT_TIME = "$envelope.time";
    public static final String SNS_EVENT_TIME = "$envelope.Timestamp";
    public static final String S3_EVENT_TIME = "$.eventTime";

    public static final EventTimeSpec.TimeFormat TIME_FORMAT = EventTimeSpec.TimeFormat.AUTO;
    public static final EventTimeSpec.TimeFallback TIME_FALLBACK = EventTimeSpec.TimeFallback.SQS_SENT_TIMESTAMP;
    public static final Duration MAX_FUTURE = Duration.ofMinutes(5);
    public static final Duration MAX_PAST = Duration.ofDays(7);

    public static final WindowSpec WINDOW = new WindowSpec.Tumbling(Duration.ofMinutes(1), Duration.ZERO);

    public static final Duration OUT_OF_ORDERNESS = Duration.ofSeconds(5);
    public static final Duration IDLE_AFTER = Duration.ofMinutes(1);

    public static final Duration ALLOWED_LATENESS = Duration.ZERO;
    public static final LatePolicy.TooLate TOO_LATE = LatePolicy.TooLate.SIDE_OUTPUT;
    public static final Duration CORRECTION_DELAY = Duration.ofSeconds(10);

    public static final IncompletePolicy.Mode INCOMPLETE = IncompletePolicy.Mode.FIRE_PARTIAL;
    /** Always set on the loaded record, and acted on only under {@code HOLD}. */
    public static final IncompletePolicy.AtDeadline AT_DEADLINE = IncompletePolicy.AtDeadline.FIRE_FLAGGED;

    public static final List<AggregationSpec> AGGREGATIONS = List.of(new AggregationSpec.Count("count"));
    public static final int SAMPLES = 10;
    public static final int MAX_SAMPLES = 100;
    public static final int CAP = 100;
    public static final int MAX_CAP = 10_000;
    /** Bytes of one listed id or value (distinct-ids, distinct-values), as JSON: {@code maxValueBytes}. */
    public static final int LISTED_VALUE_BYTES = 256;
    /** Bytes of one sample's value (first, last), as JSON: {@code maxValueBytes}. */
    public static final int SAMPLE_VALUE_BYTES = 8_192;
    /** The range of {@code maxValueBytes}: up to what one aggregate can hold at all. */
    public static final int MIN_AGGREGATION_BYTES = 16;
    public static final int MAX_AGGREGATION_BYTES = 262_144;

    public static final boolean SENTINEL_COUNTS_AS_EVENT = false;
    public static final int FIRST_MEMBER = 0;

    public static final int MAX_EVENTS_PER_WINDOW = 10_000;
    public static final int MAX_OPEN_WINDOWS = 10_000;
    public static final int MAX_KEY_LENGTH = 512;
    /** The DynamoDB partition key holds the pipeline and the key in at most 2,048 bytes. */
    public static final int LONGEST_KEY_LENGTH = 1_024;
    /** The longest event id intake keeps as it is, in UTF-8 bytes; a longer one is kept as its SHA-256 (71 bytes). */
    public static final int LONGEST_EVENT_ID_BYTES = 1_024;
    /** Completeness tracks members only up to this many expected; above, it falls back to the seen count. */
    public static final int MOST_MEMBERS_TRACKED = 10_000;
    /** The largest {@code firstMember}: firstMember + {@link #MOST_MEMBERS_TRACKED}, past its last member, is still an int. */
    public static final int LAST_FIRST_MEMBER = Integer.MAX_VALUE - MOST_MEMBERS_TRACKED;
    /** An aggregate lists at most this many missing members (and says when more are missing). */
    public static final int MOST_MISSING_LISTED = 1_000;
    public static final int MAX_PAYLOAD_BYTES = 262_144;
    /** The largest SQS message. */
    public static final int LARGEST_PAYLOAD_BYTES = 1_048_576;
    public static final Bounds.Overflow ON_OVERFLOW = Bounds.Overflow.SPLIT;
    public static final int MOST_SLIDING_WINDOWS_PER_EVENT = 100;

    public static final EmitTarget EMIT = new EmitTarget.EventBridge("${FANIN_EMIT_BUS_NAME}", "fanin", "fanin.aggregate");

    public static final Duration RETENTION = Duration.ofDays(7);

    private ConfigDefaults() {
    }
}
