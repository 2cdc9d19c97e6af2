package dev.fanin.core.config;

/** Where the payload sits inside an SQS message body. */
public enum Envelope {
    /** The body is the event JSON itself. */
    RAW,
    /** An EventBridge event delivered to SQS by a rule; the payload is {@code detail}. */
    EVENTBRIDGE,
    /** An SNS notification delivered to SQS (not raw delivery); the payload is the JSON in {@code Message}. */
    SNS,
    /** An S3 event notification; one message carries several {@code Records}, each becoming one event. */
    S3
}
