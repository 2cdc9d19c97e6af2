package dev.fanin.core.intake;

import dev.fanin.core.event.Event;
import java.util.List;

/**
 * What intake made of one message. Every message lands in at least one list; an S3 notification may land in
 * several (good records accepted, bad ones rejected individually). The handler dead-letters the original body once
 * when {@code rejected} is not empty, carrying every record's reason.
 */
public record IntakeResult(List<Event> accepted, List<Rejected> rejected, List<Ignored> ignored) {

    public IntakeResult {
        accepted = List.copyOf(accepted);
        rejected = List.copyOf(rejected);
        ignored = List.copyOf(ignored);
    }

    static IntakeResult rejectedWhole(RejectionReason reason, String detail, String pipeline) {
        return new IntakeResult(List.of(), List.of(new Rejected(reason, detail, pipeline, Rejected.WHOLE_MESSAGE)), List.of());
    }

    static IntakeResult ignoredWhole(IgnoreReason reason, String detail, String pipeline) {
        return new IntakeResult(List.of(), List.of(), List.of(new Ignored(reason, detail, pipeline, Rejected.WHOLE_MESSAGE)));
    }
}
