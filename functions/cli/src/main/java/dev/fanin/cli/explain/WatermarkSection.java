package dev.fanin.cli.explain;

import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.LatePolicy;
import dev.fanin.core.config.PipelineConfig;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;

/** 3. The watermark formula with this pipeline's numbers, what it means for close latency, and where late events go. */
final class WatermarkSection {

    private WatermarkSection() {
    }

    static String render(PipelineConfig p) {
        WindowShape shape = WindowShape.of(p);
        Duration ooo = p.watermark().outOfOrderness();
        Duration idle = p.watermark().idleAfter();
        Duration lateness = p.allowedLateness();
        String lifetime = Human.config(p.triggers().maxLifetime());
        StringBuilder md = new StringBuilder("### 3. Watermark and late events\n\n");
        md.append("Windows close on event-time progress, measured by the pipeline's watermark:\n\n```\nwatermark = maxEventTime - ")
                .append(Human.plain(ooo)).append(" + max(0, now - lastArrival - ").append(Human.plain(idle)).append(")\n```\n\n");
        md.append("`maxEventTime` is the newest event time the pipeline has seen and `lastArrival` the processing time of its latest "
                + "arrival. The first term is bounded out-of-orderness: an event up to ").append(Human.config(ooo))
                .append(" behind the newest one is still on time. The second is the idle advance: once no event has arrived for ")
                .append(Human.config(idle)).append(", the watermark moves with processing time, so an idle pipeline still closes its windows (the watermark "
                        + "is the pipeline's: a key gone quiet in a busy pipeline closes as the other keys' events move it).\n\n");
        String twiceIdle = Human.derived(Human.sum(idle, idle));
        md.append("While the input queue is behind, the watermark holds: a message that waited in the queue more than ").append(Human.config(ooo))
                .append(" + 1 s (from its SQS send time to its first receipt) caps the watermark at that send time - ").append(Human.config(ooo))
                .append(" for ").append(Human.config(idle)).append(" after it came, up to ").append(twiceIdle)
                .append(" (sightings are kept by intervals of ").append(Human.config(idle))
                .append("); after an outage, at the pipeline's last arrival before it (by at most ").append(Human.config(idle))
                .append(" below its oldest message) for as long as messages sent during the outage keep coming, so a backlog delivered in any order makes no "
                        + "on-time event late (docs/SEMANTICS.md, \"Consumer lag\"). The windows it holds close at most ").append(twiceIdle)
                .append(" after the backlog is drained, and a queue that stays behind still closes them, later by its wait plus at most ")
                .append(twiceIdle).append(".\n\n");
        md.append("What that means here (taking event times close to arrival times):\n\n");
        if (shape.session()) {
            md.append("- A session closes about ").append(Human.derived(Human.sum(shape.length(), ooo)))
                    .append(" (gap ").append(Human.config(shape.length())).append(" + out-of-orderness ").append(Human.config(ooo))
                    .append(") after its last event while traffic flows, and at most ")
                    .append(Human.derived(Human.sum(shape.length(), ooo, idle))).append(" (+ idleAfter ").append(Human.config(idle))
                    .append(") after the last arrival once the pipeline goes idle.\n");
        } else {
            md.append("- A window closes about ").append(Human.config(ooo))
                    .append(" (out-of-orderness) after its end while traffic flows, and at most ")
                    .append(Human.derived(Human.sum(ooo, idle))).append(" (+ idleAfter ").append(Human.config(idle))
                    .append(") after its end once the pipeline goes idle.\n");
        }
        Duration eventTimeClose = Human.sum(shape.length(), ooo);
        if (p.triggers().maxLifetime().compareTo(eventTimeClose) <= 0) {
            md.append("- The hard lifetime ").append(lifetime).append(" is not longer than ").append(shape.lengthField()).append(" + out-of-orderness (")
                    .append(Human.derived(eventTimeClose)).append("): a window opened by an event near its start reaches its hard "
                            + "lifetime before the watermark can pass its end, so here the hard lifetime acts as the deadline.\n");
        } else {
            md.append("- Either way no window lives longer than ").append(lifetime).append(" after its creation (`HARD_LIFETIME`)")
                    .append(shape.session() ? ", which also cuts a burst that never goes quiet.\n" : ".\n");
        }
        md.append("\nAn event is **late** when the watermark has reached its window's end (").append(shape.end())
                .append(") by the time it arrives:\n\n");
        md.append("| when the event arrives | class | what happens |\n|---|---|---|\n");
        md.append("| `watermark < end`, window not fired yet | on time | folded into the open window |\n");
        List<String> earlyClosers = new ArrayList<>();
        if (p.knowsCompleteness()) {
            earlyClosers.add("completeness");
        }
        if (p.triggers().count() != null) {
            earlyClosers.add("count");
        }
        earlyClosers.add("the hard lifetime");
        md.append("| `watermark < end`, window already fired (by ").append(String.join(" or ", earlyClosers))
                .append(") | on time, for a fired window "
                + "| a correction: a new revision of the aggregate (reason `LATE_CORRECTION`, `corrects` = the previous aggregate id) |\n");
        String tooLate = tooLateDisposition(p.late());
        String plain = Human.plain(lateness);
        if (!lateness.isZero()) {
            md.append("| `end <= watermark < end + ").append(plain).append("` | late | a correction, as above |\n");
        }
        String waiting = switch (p.holdsIncomplete() ? IncompletePolicy.Mode.HOLD : p.incomplete().mode()) {
            case HOLD -> " (a window still incomplete takes its missing events, held until its hard deadline: `incomplete: hold`)";
            case FIRE_AND_RECONCILE -> p.knowsCompleteness()
                    ? " (a window still incomplete takes its missing events as corrections until its hard deadline"
                            + (lateness.isZero() ? "" : " + " + plain) + ": `incomplete: fire-and-reconcile`)"
                    : "";
            case FIRE_PARTIAL -> "";
        };
        md.append("| `watermark >= end").append(lateness.isZero() ? "" : " + " + plain).append("` | too late | ").append(tooLate)
                .append(waiting).append(" |\n");
        md.append("| processing time at or after the window's hard deadline").append(lateness.isZero() ? "" : " + " + plain)
                .append(" | too late, whatever the watermark | ").append(tooLate).append(" |\n\n");
        md.append("Corrections are batched: events arriving within ").append(Human.config(p.late().correctionDelay()))
                .append(" (`late.correctionDelay`) of the first pending one make one correction revision. ");
        if (lateness.isZero()) {
            md.append("`allowedLateness` is `0s`: once the watermark reaches a window's end, end - 1ms is on time and end is too late. ");
        } else {
            md.append("Boundaries: end - 1ms is on time, end is late, end + ").append(plain).append(" - 1ms is late, end + ")
                    .append(plain).append(" is too late. ");
        }
        md.append("While traffic flows, an event near the end of its window is late when it arrives more than ").append(Human.config(ooo))
                .append(" after its event time");
        if (!lateness.isZero()) {
            md.append(", and too late beyond ").append(Human.derived(Human.sum(ooo, lateness)));
        }
        md.append(". Every late event is counted (`LateEvents`, by disposition).\n");
        return md.toString();
    }

    private static String tooLateDisposition(LatePolicy late) {
        return late.tooLate() == LatePolicy.TooLate.SIDE_OUTPUT
                ? "sent to the late-event side output (the late-events queue) with its reason (`late.tooLate: side-output`)"
                : "counted and dropped (`late.tooLate: drop`)";
    }
}
