package dev.fanin.cli.explain;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;

/** 1. The window type, and why it fits this pipeline. */
final class WindowSection {

    private WindowSection() {
    }

    static String render(PipelineConfig p) {
        StringBuilder md = new StringBuilder("### 1. Window type\n\n");
        String lifetime = Human.config(p.triggers().maxLifetime());
        WindowSpec window = p.window();
        if (window instanceof WindowSpec.Session s) {
            String gap = Human.config(s.gap());
            md.append("**Session window, gap ").append(gap).append(".** Per key, one window per burst: `[first event, last event + ")
                    .append(Human.plain(s.gap())).append(")`, so it ends after ").append(gap)
                    .append(" without an event for the key.\n\n");
            md.append("Why a session: the grouping is \"quiet for ").append(Human.plain(s.gap()))
                    .append("\", not a fixed period. A burst of unknown length becomes one batch however long it runs, "
                            + "and one that starts just before a clock boundary is not cut in two, as a tumbling window would cut it. "
                            + "A burst that never goes quiet is still bounded: the hard lifetime ")
                    .append(lifetime).append(" closes it.\n\n");
            md.append("Sessions of one key that overlap merge into one (the earliest keeps its id). Intervals that only touch do not: "
                    + "an event exactly ").append(gap).append(" after a session's last event starts a new session; one millisecond sooner and it joins. "
                    + "A session that has already fired is never bridged: an event overlapping it is late for it.\n");
        } else if (window instanceof WindowSpec.Tumbling t) {
            String size = Human.config(t.size());
            md.append("**Tumbling window, size ").append(size).append(", offset ").append(Human.config(t.offset()))
                    .append(".** Fixed, non-overlapping windows `[start, start + ").append(Human.plain(t.size()))
                    .append(")` with `start = floor((t - ").append(Human.plain(t.offset())).append(") / ")
                    .append(Human.plain(t.size())).append(") * ").append(Human.plain(t.size())).append(" + ")
                    .append(Human.plain(t.offset())).append("`: every event is in exactly one window.\n\n");
            md.append("Why tumbling: the batch is a fixed period per key (a run, a rollup period), reported once; consecutive periods "
                    + "never share an event, so no event is acted on twice.");
            if (p.knowsCompleteness()) {
                md.append(" The window is the container of one batch; what closes it first is completeness (section 2), "
                        + "the window end and the hard lifetime ").append(lifetime).append(" only bound how long it can wait.");
            }
            md.append('\n');
        } else {
            WindowSpec.Sliding s = (WindowSpec.Sliding) window;
            long perEvent = s.size().toMillis() / s.slide().toMillis();
            md.append("**Sliding window, size ").append(Human.config(s.size())).append(", a new one every ")
                    .append(Human.config(s.slide())).append(".** Windows `[k * ").append(Human.plain(s.slide()))
                    .append(", k * ").append(Human.plain(s.slide())).append(" + ")
                    .append(Human.plain(s.size())).append(")`; every event is in exactly ")
                    .append(perEvent).append(perEvent == 1 ? " window" : " windows").append(".\n\n");
            md.append("Why sliding: the aggregate is an overlapping trend (the last ").append(Human.config(s.size()))
                    .append(", refreshed every ").append(Human.config(s.slide()))
                    .append("). The price is ").append(perEvent)
                    .append(perEvent == 1 ? " window write" : " window writes").append(" per event, and as many aggregates per period.\n");
        }
        md.append("\nAll windows are half-open `[start, end)` in event time: an event exactly at `end` belongs to the next window.\n");
        return md.toString();
    }
}
