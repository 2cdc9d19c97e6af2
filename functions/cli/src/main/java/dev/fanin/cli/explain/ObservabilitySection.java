package dev.fanin.cli.explain;

import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.LatePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.lambda.PowertoolsMetrics;
import java.util.ArrayList;
import java.util.List;

/** 8. Backpressure, the metrics this pipeline emits and the alarms that watch them. */
final class ObservabilitySection {

    private ObservabilitySection() {
    }

    static String render(PipelineConfig p) {
        WindowShape shape = WindowShape.of(p);
        long lifetimeSeconds = Human.seconds(p.triggers().maxLifetime());
        String lifetime = Human.config(p.triggers().maxLifetime());
        StringBuilder md = new StringBuilder("### 8. Backpressure and observability\n\n");
        md.append("**Backpressure.** Bursts wait in the SQS queue, not in memory: ingest concurrency is capped (template parameter "
                + "`IngestMaxConcurrency`), each batch costs one read and one conditional write per window touched, and DynamoDB "
                + "throttling fails exactly the affected messages (partial batch failure) for SQS to redeliver. New windows beyond ")
                .append(p.bounds().maxOpenWindows()).append(" open are refused and retried the same way. A message that keeps failing "
                        + "is dead-lettered by the queue's redrive policy.\n\n");
        md.append("**Metrics**, as the functions write them (CloudWatch embedded metric format, namespace `")
                .append(PowertoolsMetrics.NAMESPACE).append("`): every metric with the one dimension `")
                .append(PowertoolsMetrics.SERVICE_DIMENSION).append("=").append(PowertoolsMetrics.SERVICE)
                .append("`, summed over pipelines; the ones marked *per pipeline* also in a series of their own with dimensions `")
                .append(PowertoolsMetrics.SERVICE_DIMENSION).append("=").append(PowertoolsMetrics.SERVICE).append("`, `")
                .append(PowertoolsMetrics.PIPELINE_DIMENSION).append("=").append(p.name()).append("`. The record's other fields "
                        + "(`pipeline` = `").append(p.name()).append("` and the properties below) are not dimensions: Logs Insights "
                        + "splits by them.\n\n");
        md.append("| metric | per pipeline | properties besides `pipeline` | here |\n|---|---|---|---|\n");
        metric(md, "WindowsOpened", "", "windows opened");
        metric(md, "WindowsClosed", "`reason`", "closes by reason: " + String.join(", ", reasons(p, shape)));
        metric(md, "PartialFires", "", "aggregates fired with `complete=false`");
        metric(md, "HeldWindows", "", p.incomplete().mode() == IncompletePolicy.Mode.HOLD
                ? "incomplete windows held past their end (alert: the batch is not completing)"
                : "always 0: this pipeline does not hold (policy " + Describe.yaml(p.incomplete().mode()) + ")");
        metric(md, "OpenWindows", "", "open-window slots held, at most " + p.bounds().maxOpenWindows()
                + ": the windows open now, plus any slots a crash left taken until their admission epoch retires");
        metric(md, "OldestOpenWindowAgeSeconds", "", "age of the oldest open window; at most " + lifetimeSeconds
                + " (" + lifetime + ") plus the close latency while windows close");
        metric(md, "OverdueWindows", "", "windows found open after their due time");
        metric(md, "SecondsPastHardDeadline", "", "how far past its hard deadline (creation + " + lifetime
                + ") the window furthest past it is while not closed; 0 while every window closes in time");
        metric(md, "LateEvents", "`disposition`", "late events: " + (p.allowedLateness().isZero() ? "" : "`correction`, ")
                + (p.late().tooLate() == LatePolicy.TooLate.SIDE_OUTPUT ? "`side-output`" : "`dropped`"));
        metric(md, "DuplicateEventsSuppressed", "", "redelivered or duplicate events recognised by their event id");
        metric(md, "DuplicateFlushesSuppressed", "", "closes lost to a race, and re-emissions recognised by the fence");
        metric(md, "EmitFailures", "", "emissions that failed (the window stays claimed and is retried)");
        metric(md, "WriteUnitsPerEvent", "", "DynamoDB write units per accepted event, the cost figure"
                + (shape.windowsPerEvent() > 1 ? " (each event is written to " + shape.windowsPerEvent() + " windows)" : ""));
        metric(md, "AdmissionRefused", "", "new windows refused at the bound of " + p.bounds().maxOpenWindows());
        metric(md, "DeadLettered", "", p.incomplete().mode() == IncompletePolicy.Mode.HOLD
                && p.incomplete().atDeadline() == IncompletePolicy.AtDeadline.DEAD_LETTER
                ? "rejected messages, and aggregates of windows still incomplete at the hard lifetime"
                : "rejected messages (malformed, unmatched, missing key or event time), with their reason");
        boolean deadLetters = p.incomplete().mode() == IncompletePolicy.Mode.HOLD
                && p.incomplete().atDeadline() == IncompletePolicy.AtDeadline.DEAD_LETTER;
        if (deadLetters) {
            metric(md, "WindowsDeadLettered", "", "aggregates of windows still incomplete at the hard lifetime, sent to the "
                    + "late-events queue (kind `WINDOW_DEAD_LETTERED`)");
        }
        md.append("\n**Alarms** (in template.yaml):\n\n");
        md.append("- `WindowsNotClosing`: `SecondsPastHardDeadline` above `WindowsNotClosingMarginSeconds`: a window still not "
                + "closed that long after its own hard deadline (here creation + ").append(lifetime).append(", ")
                .append(lifetimeSeconds).append(" s). Each window is measured against its own deadline: nothing to set per pipeline.\n");
        md.append("- `SweeperNotSweeping`: no sweeper run finished for `SweeperSilenceAlarmMinutes`: the backstop that closes a "
                + "window whose timer is lost is not running, which `WindowsNotClosing` and `OverdueWindows` cannot see (the sweeper "
                + "emits their metrics).\n");
        md.append("- `OverdueWindows`: windows past their due time still open for several sweeps in a row.\n");
        md.append("- `DeadLettersPresent`: any message in the input dead-letter queue.\n");
        if (deadLetters) {
            md.append("- `WindowsDeadLettered`: any window dead-lettered incomplete at its hard lifetime: its aggregate waits in the "
                    + "late-events queue for a person to decide.\n");
        }
        md.append("- `EmitFailures`: any aggregate that failed to reach its target.\n");
        md.append("- `LateEventRate`: more `LateEvents` than `LateEventsAlarmThreshold`; if it fires, `watermark.outOfOrderness` ")
                .append(Human.config(p.watermark().outOfOrderness())).append(" or `allowedLateness` ")
                .append(Human.config(p.allowedLateness())).append(" is too tight for how late events really are.\n");
        return md.toString();
    }

    private static void metric(StringBuilder md, String name, String properties, String meaning) {
        String perPipeline = PowertoolsMetrics.PIPELINE_GAUGES.contains(name) ? "yes" : "";
        md.append("| `").append(name).append("` | ").append(perPipeline).append(" | ").append(properties).append(" | ")
                .append(meaning).append(" |\n");
    }

    /** The close reasons this pipeline can record, in precedence order. */
    private static List<String> reasons(PipelineConfig p, WindowShape shape) {
        List<String> reasons = new ArrayList<>();
        if (p.triggers().expected() != null || p.triggers().sentinel() != null && p.triggers().sentinel().expectedCount() != null) {
            reasons.add("`EXPECTED_COMPLETE`");
        }
        if (p.triggers().sentinel() != null && p.triggers().sentinel().expectedCount() == null) {
            reasons.add("`SENTINEL`");
        }
        if (p.triggers().count() != null) {
            reasons.add("`COUNT`");
        }
        reasons.add(shape.session() ? "`SESSION_GAP`" : "`WATERMARK`");
        reasons.add("`HARD_LIFETIME`");
        if (p.bounds().onOverflow() == Bounds.Overflow.SPLIT) {
            reasons.add("`SIZE_LIMIT`");
        }
        if (shape.session()) {
            reasons.add("`SESSION_LIMIT`");
        }
        if (!p.allowedLateness().isZero()) {
            reasons.add("`LATE_CORRECTION`");
        }
        return reasons;
    }
}
