package dev.fanin.core.config;

/**
 * The size limits of the services fanin writes to, as their documentation states them (checked 2026-12): the
 * configuration's bounds are checked against them at load time, and the adapters stay within them at run time.
 */
public final class SinkLimits {

    /** A DynamoDB item, attribute names and values included: 400 KB. */
    public static final int DYNAMODB_ITEM_BYTES = 409_600;

    /** A {@code PutEvents} entry (source, detail type and detail in UTF-8, 14 bytes for a time): 256 KB. */
    public static final int EVENTBRIDGE_ENTRY_BYTES = 262_144;

    /**
     * An SQS message (body plus every message attribute's name, type and value) in a queue whose
     * {@code MaximumMessageSize} is the long-standing default, 256 KiB: what fanin assumes of a queue it does not
     * create (an {@code emit.sqs} target).
     */
    public static final int SQS_MESSAGE_BYTES = 262_144;

    /**
     * An SQS message in the dead-letter and late-event queues {@code template.yaml} creates: their
     * {@code MaximumMessageSize} is set to SQS's largest, 1 MiB, so a rejected body of any size the input queue takes
     * (256 KiB) fits beside its reason, and a side-output record fits beside the event it carries.
     */
    public static final int FANIN_QUEUE_MESSAGE_BYTES = 1_048_576;

    private SinkLimits() {
    }
}
