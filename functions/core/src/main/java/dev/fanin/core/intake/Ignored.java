package dev.fanin.core.intake;

import java.util.Objects;

/**
 * A message, or one record of it, that intake dropped on purpose: counted, neither processed nor dead-lettered.
 *
 * @param reason      why
 * @param detail      what was recognised, e.g. the bucket of an S3 test event
 * @param pipeline    the pipeline whose envelope recognised it, or null
 * @param recordIndex the record index, or -1 for the whole message
 */
public record Ignored(IgnoreReason reason, String detail, String pipeline, int recordIndex) {

    public Ignored {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
    }
}
