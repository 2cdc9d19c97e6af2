package dev.fanin.core.intake;

import java.util.Objects;

/**
 * A message, or one record of it, that intake refused.
 *
 * @param reason      why
 * @param detail      names the field or path and the offending value (truncated to about 100 characters, control
 *                    characters escaped), and for parse errors the line and column
 * @param pipeline    the pipeline the message was matched to, or null when none was
 * @param recordIndex the index of the record within the message (S3 notifications), or -1 for the whole message
 */
public record Rejected(RejectionReason reason, String detail, String pipeline, int recordIndex) {

    public static final int WHOLE_MESSAGE = -1;

    public Rejected {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
    }
}
