package dev.fanin.cli.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.FaninCommand;
import dev.fanin.cli.UsageException;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WindowStore.DueBucket;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fanin windows show}: one window decoded: where it stands and why, its completeness, its aggregations so far,
 * the revisions emitted with their aggregate ids, its timer chain and the due buckets that list it for the sweeper.
 */
@Command(name = "show", description = "show one window decoded: state, completeness, aggregations, revisions, timer and due listings",
        footer = {"", "Exits 0 when the window exists, 1 when it does not (or the stack cannot be read)."})
final class ShowWindowCommand extends FaninCommand {

    @Mixin
    private StackOptions target;
    @Mixin
    private WindowSelector window;
    @Option(names = "--json", description = "print the window as one JSON object")
    private boolean json;

    @Override
    protected int run(Console console) throws UsageException {
        WindowRef ref = window.ref();
        try (Operated stack = Operated.connect(target, console, Clock.systemUTC())) {
            stack.pipeline(ref.pipeline());
            Optional<StoredWindow> stored = stack.table().window(ref);
            if (stored.isEmpty()) {
                console.err().println("fanin windows show: no window " + ref.windowId() + " of key \"" + ref.key() + "\" in pipeline "
                        + ref.pipeline() + " (closed windows go when their TTL passes)");
                return FaninCli.INVALID_INPUT;
            }
            Instant now = Instant.now();
            WindowState state = stack.engine().decode(stored.get());
            WindowReport report = WindowReport.of(state, stack.pipeline(ref.pipeline()),
                    stack.engine().watermark(ref.pipeline(), Long.MIN_VALUE, now), now);
            List<DueBucket> listings = listings(stack, ref, state);
            if (json) {
                console.out().println(json(report, listings).toPrettyString());
            } else {
                print(report, listings, now, console.out());
            }
            return FaninCli.OK;
        }
    }

    /**
     * The buckets that list the window in the deployment's shards; for a window with a due time listed in none of them,
     * also in the shards past them, where a deployment with more shards may have left its listing.
     */
    private static List<DueBucket> listings(Operated stack, WindowRef ref, WindowState state) {
        int shards = stack.stack().dueShards();
        List<DueBucket> listings = stack.table().listings(ref, 0, shards);
        return listings.isEmpty() && state.dueAt() != null ? stack.table().listings(ref, shards, WindowStore.MAX_DUE_SHARDS) : listings;
    }

    private static void print(WindowReport r, List<DueBucket> listings, Instant now, PrintStream out) {
        WindowState w = r.state();
        out.println("window       " + w.ref().pipeline() + "  " + w.ref().key() + "  " + w.ref().windowId());
        out.println("status       " + (r.overdue() ? "OVERDUE " : "") + w.status() + " (version " + w.version() + ")");
        out.println("why          " + r.why());
        out.println("bounds       " + w.kind() + " [" + Times.iso(w.bounds().startMillis()) + ", " + Times.iso(w.bounds().endMillis())
                + ") event time");
        out.println("opened       " + Times.relative(w.openedAt(), now) + ", hard deadline " + Times.relative(w.hardDeadline(), now));
        out.println("events       " + w.revisionEvents() + " in revision " + w.revision() + "; first " + Times.iso(w.firstEventTime())
                + ", last " + Times.iso(w.lastEventTime()) + " (event time); last arrival " + Times.iso(w.lastArrival())
                + "; late events " + w.lateEvents() + "; ids kept " + w.eventIds().size());
        out.println("completeness " + r.completeness());
        out.println("aggregations " + w.aggregates().toOutput());
        out.println("revisions    " + revisions(w));
        out.println("timer        " + (w.timer() == null ? "none" : "chain " + w.timer().id() + ", next message for "
                + Times.relative(w.timer().armedFor(), now)));
        // A HELD window's visits that find it still held write nothing, so its stored due time may be long past: its
        // next decision is its hard deadline (or the event that completes it).
        String due = w.status() == WindowStatus.HELD ? "held: at its hard deadline " + Times.relative(w.hardDeadline(), now)
                + " at the latest (stored due time " + Times.relative(w.dueAt(), now) + ", as last written)" : Times.relative(w.dueAt(), now);
        out.println("due          " + due + "; listed for the sweeper in " + listings.size()
                + (listings.size() == 1 ? " due bucket" : " due buckets")
                + (listings.isEmpty() ? "" : " (earliest " + Times.relative(listings.get(0).dueAt(), now) + ")"));
        if (w.claim() != null) {
            out.println("claim        revision " + w.claim().revision() + ", " + w.claim().reason() + ", complete " + w.claim().complete()
                    + ", fence " + w.fence() + ", lease until " + Times.relative(w.leaseUntil(), now) + ", aggregate "
                    + w.ref().aggregateId(w.claim().revision()));
        }
    }

    private static String revisions(WindowState w) {
        if (w.committedRevision() < 0) {
            return "none emitted yet";
        }
        StringBuilder text = new StringBuilder();
        for (int revision = 0; revision <= w.committedRevision(); revision++) {
            text.append(revision == 0 ? "" : ", ").append(w.ref().aggregateId(revision));
        }
        return text.toString();
    }

    private static ObjectNode json(WindowReport r, List<DueBucket> listings) {
        WindowState w = r.state();
        ObjectNode json = WindowJson.of(r);
        json.put("version", w.version());
        json.put("committedRevision", w.committedRevision());
        ArrayNode emitted = json.putArray("aggregateIds");
        for (int revision = 0; revision <= w.committedRevision(); revision++) {
            emitted.add(w.ref().aggregateId(revision));
        }
        json.set("aggregations", w.aggregates().toOutput());
        json.put("lateEvents", w.lateEvents());
        json.put("timerArmedFor", w.timer() == null ? null : Times.iso(w.timer().armedFor()));
        ArrayNode due = json.putArray("dueListings");
        listings.forEach(b -> due.add(Times.iso(b.dueAt())));
        if (w.claim() != null) {
            json.putObject("claim").put("revision", w.claim().revision()).put("reason", w.claim().reason().name())
                    .put("complete", w.claim().complete()).put("fence", w.fence()).put("leaseUntil", Times.iso(w.leaseUntil()))
                    .put("aggregateId", w.ref().aggregateId(w.claim().revision()));
        }
        return json;
    }
}
