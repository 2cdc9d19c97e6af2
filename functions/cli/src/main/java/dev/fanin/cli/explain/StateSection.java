package dev.fanin.cli.explain;

import dev.fanin.core.config.AggregationSpec;
import dev.fanin.core.config.Bounds;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SizeBudget;
import dev.fanin.core.service.AdmissionEpochs;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** 4. Where window state lives, its keys and layout, its bounds, admission control and eviction. */
final class StateSection {

    private StateSection() {
    }

    static String render(PipelineConfig p) {
        WindowShape shape = WindowShape.of(p);
        String name = p.name();
        Bounds bounds = p.bounds();
        StringBuilder md = new StringBuilder("### 4. Keyed state, bounds and eviction\n\n");
        md.append("State lives in one DynamoDB table (layout in docs/ARCHITECTURE.md), never in a function's memory; "
                + "SQS is the buffer. This pipeline's items:\n\n");
        md.append("| item | `pk` | `sk` | holds |\n|---|---|---|---|\n");
        if (shape.session()) {
            md.append("| live sessions | `W#").append(name).append("#<key>` | `S~` | one version for every session of the key not yet "
                    + "committed (accepting, or claimed for its first close): each one's status, due time, fence, lease, recent event-id "
                    + "digests and accumulators; the latest committed session's bounds; the too-late verdicts no session holds (at most "
                    + LiveSessions.MAX_TOO_LATE + "); `ttl` |\n");
        }
        md.append("| window head | `W#").append(name).append("#<key>` | `<windowId>#H` | ")
                .append(shape.session() ? "a committed session: " : "")
                .append("version, status, due time and due shard (only while something is due), fence, lease, the recent event-id "
                        + "digests, the accumulators, `ttl` |\n");
        md.append("| id slice | `W#").append(name).append("#<key>` | `<windowId>#S#<n>` | sealed event-id digests, `ttl` |\n");
        md.append("| open-window counter | `C#").append(name).append("` | `slots` | open-window slots held, in total and per admission epoch |\n");
        md.append("| watermark shard | `M#").append(name).append("` | `<shard>` | `maxEt`, `lastArr`, `ttl`, `bk` (backlog) |\n\n");
        md.append("`<windowId>` is ").append(shape.session()
                ? "`S` + the event time (epoch ms, 15 digits) of the event that opened the session; a session keeps it as it grows or absorbs "
                        + "others. A batch reads the key's live item (one consistent `GetItem`) and, only for events before the end of the "
                        + "latest committed session, the committed sessions around those events (the first one after them, and those before "
                        + "it down to the first starting at or before them): never the key's history. Every change to the live sessions is one "
                        + "`PutItem` conditional on their version, so two invocations on one key never both create or extend a session. "
                        + "A key holds at most " + LiveSessions.MAX_ACCEPTING + " accepting sessions (and "
                        + LiveSessions.MAX_LIVE_STATE_BYTES / 1024 + " KiB of their state) at once; beyond, the oldest are "
                        + "cut short (`SESSION_LIMIT`).\n\n"
                : "`T` + the window start (epoch ms, 15 digits). Loading a window is one query on `pk` and the `sk` prefix `<windowId>`.\n\n");
        md.append("Bounds:\n\n");
        md.append("- At most ").append(bounds.maxEventsPerWindow()).append(" distinct events per window revision; beyond that, ")
                .append(bounds.onOverflow() == Bounds.Overflow.SPLIT
                        ? (shape.session()
                                ? "the session closes (`SIZE_LIMIT`) and the next events open a session that continues it (`onOverflow: split`)."
                                : "the revision closes (`SIZE_LIMIT`) and the window continues as the next revision (`onOverflow: split`).")
                        : "the window keeps its events and further ones go to the side output (`onOverflow: side-output`).")
                .append('\n');
        md.append("- The accumulators are bounded by their caps and by the bytes of each listed value, not by the number of events: ")
                .append(accumulatorBounds(p.aggregations())).append(". So the largest aggregate is ").append(SizeBudget.aggregateBytes(p))
                .append(" bytes (an emit entry takes ").append(SizeBudget.emitLimit(p.emit())).append(") and the largest window state ")
                .append(SizeBudget.stateBytes(p)).append(" bytes (a DynamoDB item leaves ").append(SizeBudget.stateLimit())
                .append(" for it), checked when the configuration is loaded.\n");
        md.append("- Every accepted event id is kept, as a 16-character digest, for the window's whole life, so a redelivery is "
                + "recognised however late it comes; so is every id judged too late (marked), so that no later copy of it is counted. "
                + "Recent digests live on the head; older ones spill into sealed slices, so each write costs about one write unit "
                + "however large the window grows.\n");
        md.append("- Group keys of at most ").append(bounds.maxKeyLength()).append(" bytes and payloads of at most ")
                .append(bounds.maxPayloadBytes()).append(" bytes; larger ones are rejected with their reason.\n");
        md.append("- **Admission control:** at most ").append(bounds.maxOpenWindows())
                .append(" windows of this pipeline admitted and not yet closed for the first time. A new window takes a slot before it is "
                        + "created, reserved with the batch's other new windows in one conditional counter update that never lets the slots "
                        + "held pass the bound, and gives it back after its first close; a new window beyond the bound is refused "
                        + "(`AdmissionRefused`) and its messages return through SQS to be retried, never dropped. Events for windows "
                        + "already open are not affected. After a crash the count errs on the safe side: a slot left taken comes back "
                        + "at the sweep that retires its admission epoch, at most ")
                .append(Human.derived(epochReturn(p))).append(" (plus a sweep period) after it was taken.\n\n");
        Duration lifetime = p.triggers().maxLifetime();
        Duration ttl = Human.sum(lifetime, p.allowedLateness(), p.late().correctionDelay(), p.effectiveRetention());
        // A window closed by a trigger before its span ends still takes events until its end + maxPast.
        String horizon = p.spanPastLifetime().isZero() ? "maxPast + maxFuture" : "maxPast + maxFuture + window.size - maxLifetime";
        md.append("**Eviction.** No key can hold state forever: every window leaves the open set when it fires, at the latest at its "
                + "hard deadline (creation + ").append(Human.config(lifetime)).append("). Its items then stay for dedupe and corrections, "
                        + "and carry a TTL (`lease` is the flush lease, a deployment setting):\n\n```\n"
                        + "ttl = hardDeadline + allowedLateness + correctionDelay + lease + max(retention, ").append(horizon)
                .append(")\n    = creation + ")
                .append(Human.plain(lifetime)).append(" + ").append(Human.plain(p.allowedLateness())).append(" + ")
                .append(Human.plain(p.late().correctionDelay())).append(" + lease + ").append(Human.plain(p.effectiveRetention()))
                .append("\n    = creation + ").append(Human.derived(ttl)).append(" + lease\n```\n\n");
        md.append("TTL is garbage collection, never the way a window closes (the triggers are). `retention` ")
                .append(Human.config(p.retention())).append(" outlasts `allowedLateness` ").append(Human.config(p.allowedLateness()))
                .append(", so a late event never finds its window deleted and fires it a second time; and the retention applied is at least "
                        + "`eventTime.maxPast + maxFuture`").append(p.spanPastLifetime().isZero() ? "" : " + `window.size - maxLifetime`")
                .append(" (").append(Human.derived(p.effectiveRetention()))
                .append(" here), so a duplicate that intake still accepts always finds its window.\n");
        return md.toString();
    }

    /** When a slot a crash left taken is back at the latest: two admission epochs and the retire margin. */
    private static Duration epochReturn(PipelineConfig p) {
        return AdmissionEpochs.length(p).multipliedBy(2).plus(AdmissionEpochs.RETIRE_MARGIN);
    }

    private static String accumulatorBounds(List<AggregationSpec> aggregations) {
        if (aggregations.isEmpty()) {
            return "this pipeline has none (it emits completeness only)";
        }
        return aggregations.stream().map(StateSection::bound).collect(Collectors.joining("; "));
    }

    private static String samples(int n, int maxValueBytes) {
        return n + (n == 1 ? " sample" : " samples") + " (a value over " + maxValueBytes + " bytes is trimmed, flagged)";
    }

    private static String bound(AggregationSpec spec) {
        String name = "`" + spec.name() + "`";
        if (spec instanceof AggregationSpec.DistinctIds ids) {
            return name + " keeps " + ids.cap() + " ids of up to " + ids.maxValueBytes() + " bytes and an exact count";
        }
        if (spec instanceof AggregationSpec.DistinctValues values) {
            return name + " keeps " + values.cap() + " values of up to " + values.maxValueBytes() + " bytes";
        }
        if (spec instanceof AggregationSpec.FirstN first) {
            return name + " keeps " + samples(first.n(), first.maxValueBytes());
        }
        if (spec instanceof AggregationSpec.LastN last) {
            return name + " keeps " + samples(last.n(), last.maxValueBytes());
        }
        return name + " keeps one number";
    }
}
