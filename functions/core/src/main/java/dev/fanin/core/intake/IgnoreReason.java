package dev.fanin.core.intake;

/** Why intake deliberately dropped a message without dead-lettering it. Ignored messages are counted, not kept. */
public enum IgnoreReason {
    S3_TEST_EVENT("S3 sends an s3:TestEvent when a bucket notification is configured; it carries no object");

    private final String description;

    IgnoreReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
