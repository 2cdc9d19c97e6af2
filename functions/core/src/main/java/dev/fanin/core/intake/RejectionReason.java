package dev.fanin.core.intake;

/**
 * Why intake refused a message (or one record of it). A rejected message is dead-lettered by the handler with the
 * reason's name in the {@code fanin-reason} message attribute; docs/INTAKE.md lists an example and a fix for each.
 */
public enum RejectionReason {
    PAYLOAD_TOO_LARGE("the message body is larger than maxPayloadBytes"),
    MALFORMED_JSON("the body (or an SNS Message) is not valid JSON: not JSON, truncated, trailing data or a duplicate field"),
    JSON_TOO_COMPLEX("the JSON nests deeper than 64 levels or has a number, string or field name beyond the parser's limits"),
    NUMBER_OUT_OF_RANGE("a JSON number is not 0 and its magnitude is below 1e-300 or above 1e300, so fanin could not hold it exactly"),
    NOT_A_JSON_OBJECT("the body (or an SNS Message) is valid JSON but not an object"),
    NO_MATCHING_PIPELINE("no pipeline's envelope and match rule fit the message"),
    NOT_AN_S3_RECORD("a record of an S3 notification does not say eventSource aws:s3 (the notification's other records are read)"),
    ENVELOPE_MISMATCH("a pipeline's match rule fits only when the message is read with a different envelope than configured"),
    MISSING_KEY("a key field is absent, null, or its extract regex does not match"),
    KEY_NOT_SCALAR("a key field is an object or an array"),
    KEY_CONTROL_CHARACTERS("a key part contains a control character (U+0000-U+001F or U+007F) or an unpaired UTF-16 surrogate"),
    KEY_TOO_LONG("the joined group key is longer than maxKeyLength UTF-8 bytes"),
    MISSING_EVENT_ID("the configured event id field is absent, null or empty"),
    EVENT_ID_NOT_SCALAR("the event id field is an object or an array"),
    EVENT_ID_CONTROL_CHARACTERS("the event id contains a control character (U+0000-U+001F or U+007F) or an unpaired UTF-16 surrogate"),
    MISSING_EVENT_TIME("the event time field is absent and the pipeline's fallback is REJECT"),
    UNPARSABLE_EVENT_TIME("the event time field is present but not a time in the configured format"),
    EVENT_TIME_OUT_OF_RANGE("the event time is before 1970, after 9999, or beyond maxFuture/maxPast from the message's sent time"),
    INTERNAL_ERROR("intake failed unexpectedly on this message (a fanin bug): the message is kept for a replay");

    private final String description;

    RejectionReason(String description) {
        this.description = description;
    }

    /** One line for humans: what the reason means. */
    public String description() {
        return description;
    }
}
