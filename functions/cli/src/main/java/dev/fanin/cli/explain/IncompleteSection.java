package dev.fanin.cli.explain;

import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.trigger.Completeness;

/** 6. What happens to a window whose time is up before it is complete, for this pipeline. */
final class IncompleteSection {

    private IncompleteSection() {
    }

    static String render(PipelineConfig p) {
        WindowShape shape = WindowShape.of(p);
        String lifetime = Human.config(p.triggers().maxLifetime());
        IncompletePolicy policy = p.incomplete();
        StringBuilder md = new StringBuilder("### 6. Incomplete-window policy: ").append(Describe.yaml(policy.mode())).append("\n\n");
        if (!p.knowsCompleteness()) {
            md.append("This pipeline has no expected count and no sentinel, so nothing can be missing from a window that reaches its "
                    + "own end: a close by ").append(p.triggers().count() != null ? "`COUNT` or " : "")
                    .append(shape.session() ? "`SESSION_GAP`" : "`WATERMARK`")
                    .append(" fires with `complete=true`. A window cut short by `HARD_LIFETIME` (").append(lifetime).append(" after creation)")
                    .append(p.bounds().onOverflow() == Bounds.Overflow.SPLIT
                            ? " or by `SIZE_LIMIT` (" + p.bounds().maxEventsPerWindow() + " events)" : "")
                    .append(" fires with `complete=false` and is counted in `PartialFires`: a flagged result, never a silent one. So does a correction of it: late events do not undo the cut.\n");
            return md.toString();
        }
        boolean hardLifetimeFirst = p.triggers().maxLifetime().compareTo(Human.sum(shape.length(), p.watermark().outOfOrderness())) <= 0;
        String firstTimeTrigger = hardLifetimeFirst
                ? "the hard lifetime, " + lifetime + " after the window's first event"
                : "the window's event-time end (section 3), or at the latest the hard lifetime " + lifetime;
        String missing = p.triggers().expected() != null && p.triggers().expected().memberPath() != null
                ? "`expected`, `seen`, `missingCount` and the missing members of " + Describe.path(p.triggers().expected().memberPath())
                + " (at most " + Completeness.MAX_MISSING_LISTED + " listed, then `missingTruncated`)"
                : "`expected`, `seen` and `missingCount` (unknown while no expected count has arrived)";
        md.append("A window is complete when the completeness trigger of section 2 holds. Here a time trigger comes first at ")
                .append(firstTimeTrigger).append(". Then:\n\n");
        switch (policy.mode()) {
            case FIRE_PARTIAL -> md.append("- The window fires at once with `complete=false`, ").append(missing)
                    .append("; counted in `PartialFires`. ").append(afterFire(p, hardLifetimeFirst));
            case FIRE_AND_RECONCILE -> md.append("- The window fires at once with `complete=false`, ").append(missing)
                    .append("; counted in `PartialFires`. Then each missing event that arrives before the hard deadline + `allowedLateness` ")
                    .append(Human.config(p.allowedLateness()))
                    .append(" (processing time), whatever the watermark, produces a correction revision, so the consumer converges "
                            + "on the complete set; after that it is too late.\n");
            case HOLD -> {
                md.append("- The window is **held**, not fired: it stays open and accepts events, counted in `HeldWindows` (alert on "
                        + "it), and fires with `complete=true` the moment it completes.\n");
                md.append("- At its hard lifetime (").append(lifetime).append(" after creation) a still-incomplete window ")
                        .append(policy.atDeadline() == IncompletePolicy.AtDeadline.FIRE_FLAGGED
                                ? "fires with `complete=false`, reason `HARD_LIFETIME`, and " + missing
                                + " (`atDeadline: fire-flagged`): an explicit, flagged decision, counted in `PartialFires`.\n"
                                : "is not fired: its aggregate goes to the late-events queue as a `WINDOW_DEAD_LETTERED` record "
                                + "(`atDeadline: dead-letter`, counted in `WindowsDeadLettered`, which alarm `WindowsDeadLettered` "
                                + "watches) for a person to decide.\n");
            }
        }
        md.append("\nPartial firing is never an accident of timing: a consumer can tell a partial aggregate by `complete=false` and "
                + "`closeReason`.\n");
        return md.toString();
    }

    private static String afterFire(PipelineConfig p, boolean hardLifetimeFirst) {
        if (hardLifetimeFirst && p.allowedLateness().isZero()) {
            return "A missing event that arrives afterwards is too late: the window accepts nothing after its hard deadline "
                    + "(`allowedLateness` is `0s`).\n";
        }
        return "A missing event that arrives afterwards produces a correction revision unless it is too late (section 3).\n";
    }
}
