package dev.fanin.cli.explain;

import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.PipelineConfig;

/** 5. The idempotent flush: claim, emit, commit, and what a crash at each step leaves. */
final class FlushSection {

    private FlushSection() {
    }

    static String render(PipelineConfig p) {
        StringBuilder md = new StringBuilder("### 5. Idempotent flush\n\n");
        md.append("A window fires in three steps (the full protocol is in docs/FLUSH.md):\n\n");
        md.append("1. **Claim**: a write conditional on the version read sets the window CLAIMED, freezes the revision's aggregate in "
                + "the window state, increments its `fence` and sets a `lease`. One claim per revision can succeed.\n");
        md.append("2. **Emit** the aggregate ").append(target(p.emit())).append(", identified by its aggregate id `")
                .append(p.name().length()).append(':').append(p.name())
                .append("/<key length>:<key>/<windowId>/r<revision>`, the same at every emission of the revision.\n");
        md.append("3. **Commit**: a write conditional on the version, after re-checking the fence, sets the window CLOSED.\n\n");
        md.append("| stops after | left behind | what happens next |\n|---|---|---|\n");
        md.append("| the claim, before the emit | a CLAIMED window with a lease | when the lease ends, the timer or the sweep takes over "
                + "with a higher fence and emits the frozen revision; the old holder's commit fails on the fence |\n");
        md.append("| the emit, before the commit | an emitted aggregate, a CLAIMED window | the takeover emits the same revision again: "
                + "the same aggregate id and the same bytes except `emittedAt` |\n");
        md.append("| the commit | a CLOSED window | nothing more; redelivered input events are recognised by their event-id digests "
                + "and change nothing |\n");
        md.append("| a failed emit | a CLAIMED window | retried (`EmitFailures` counts the failures) until it succeeds; "
                + "the window still counts as open |\n\n");
        md.append("Emit, then commit: commit-then-emit would lose the aggregate for good if the function died in between; "
                + "emit-then-commit can only repeat it, and a repeat carries the same aggregate id. ")
                .append(dedupe(p.emit())).append('\n');
        return md.toString();
    }

    private static String target(EmitTarget emit) {
        if (emit instanceof EmitTarget.EventBridge bus) {
            return "to the EventBridge bus `" + bus.busName() + "` (source `" + bus.source() + "`, detail type `"
                    + bus.detailType() + "`)";
        }
        EmitTarget.Sqs queue = (EmitTarget.Sqs) emit;
        return "to the " + (queue.fifo() ? "FIFO " : "") + "SQS queue `" + queue.queueUrl() + "`";
    }

    private static String dedupe(EmitTarget emit) {
        if (emit instanceof EmitTarget.Sqs queue && queue.fifo()) {
            return "The FIFO deduplication id is the aggregate id, so SQS itself drops a repeat within its deduplication "
                    + "interval; consumers that keep the last aggregate id per window need nothing more.";
        }
        return "Consumers keep the aggregate ids they have acted on and ignore a repeat: that is the exactly-once effect.";
    }
}
