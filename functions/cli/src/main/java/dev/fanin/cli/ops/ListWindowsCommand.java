package dev.fanin.cli.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.aws.dynamodb.WindowTableReader;
import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.FaninCommand;
import dev.fanin.cli.UsageException;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fanin windows list}: one page of windows with where each stands and why it has not closed. A page costs at
 * most {@code --max-reads} Scan requests of at most {@code --page-size} items each, whatever the table's size.
 */
@Command(name = "list", description = "list open, held, claimed and overdue windows, with why each has not closed (one page)",
        footer = {"", "A page reads at most --max-reads Scan requests of at most --page-size items (default 10 x 50 = 500 items,",
                "about 63 read units eventually consistent at 1 KB a head); --next continues where the page stopped.",
                "Exits 0, also with an empty page; 1 when the stack cannot be read."})
final class ListWindowsCommand extends FaninCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    private StackOptions target;
    @Option(names = "--pipeline", paramLabel = "NAME", description = "only this pipeline's windows")
    private String pipeline;
    @Option(names = "--status", paramLabel = "LIST", split = ",",
            description = "open, held, claimed, closed, merged, or overdue (open 2 minutes or more past the hard deadline); default open,held,claimed")
    private List<String> statuses = List.of("open", "held", "claimed");
    @Option(names = "--page-size", paramLabel = "N", description = "windows per page, and items per Scan request (default ${DEFAULT-VALUE})")
    private int pageSize = 50;
    @Option(names = "--max-reads", paramLabel = "N", description = "Scan requests per page at most (default ${DEFAULT-VALUE})")
    private int maxReads = 10;
    @Option(names = "--next", paramLabel = "CURSOR", description = "the cursor a previous page printed")
    private String next;
    @Option(names = "--json", description = "one JSON object per window (then one with the cursor), for scripts")
    private boolean json;

    @Override
    protected int run(Console console) throws UsageException {
        Filter filter = Filter.of(statuses);
        if (pageSize < 1 || pageSize > 1000 || maxReads < 1) {
            throw new UsageException("--page-size must be 1 to 1000 and --max-reads at least 1");
        }
        try (Operated stack = Operated.connect(target, console, Clock.systemUTC())) {
            if (pipeline != null) {
                stack.pipeline(pipeline);
            }
            Instant now = Instant.now();
            WindowTableReader.HeadPage page;
            try {
                page = stack.table().heads(Optional.ofNullable(pipeline), filter.stored(), Optional.ofNullable(next), pageSize, maxReads);
            } catch (IllegalArgumentException badCursor) {
                throw new UsageException("--next: " + badCursor.getMessage());
            }
            List<StoredWindow> known = page.windows().stream().filter(w -> stack.known(w.ref().pipeline()).isPresent()).toList();
            List<WindowReport> reports = reports(stack, known, now, filter);
            int unknown = page.windows().size() - known.size();
            if (json) {
                for (WindowReport r : reports) {
                    console.out().println(WindowJson.of(r).toString());
                }
                console.out().println(JSON.createObjectNode().put("next", page.cursor().orElse(null)).put("reads", page.reads())
                        .put("itemsRead", page.itemsRead()));
            } else {
                WindowTable.print(reports, console.out());
                console.out().println(footer(page, reports.size()));
            }
            if (unknown > 0) {
                console.err().println(unknown + " windows of pipelines neither configured nor retired were skipped: give the --config they ran under");
            }
            return FaninCli.OK;
        }
    }

    private static List<WindowReport> reports(Operated stack, List<StoredWindow> windows, Instant now, Filter filter) {
        Map<String, Long> watermarks = new HashMap<>();
        List<WindowReport> reports = new ArrayList<>();
        for (StoredWindow stored : windows) {
            String name = stored.ref().pipeline();
            WindowState state = stack.engine().decode(stored);
            long watermark = watermarks.computeIfAbsent(name, p -> stack.engine().watermark(p, Long.MIN_VALUE, now));
            WindowReport report = WindowReport.of(state, stack.known(name).get(), watermark, now);
            if (filter.accepts(report)) {
                reports.add(report);
            }
        }
        return reports;
    }

    private String footer(WindowTableReader.HeadPage page, int shown) {
        String cost = shown + (shown == 1 ? " window" : " windows") + " from " + page.reads() + " Scan requests (" + page.itemsRead()
                + " items read)";
        return page.cursor().map(c -> cost + "; more: add --next " + c).orElse(cost + "; end of the table");
    }

    /**
     * The statuses asked for. "overdue" (open {@link WindowReport#OVERDUE_AFTER} or more past the hard deadline) is
     * not stored: asking for it scans every open status and keeps the overdue windows beside those of the statuses named.
     */
    record Filter(Set<WindowStatus> named, boolean overdue) {

        static Filter of(List<String> names) throws UsageException {
            Set<WindowStatus> named = EnumSet.noneOf(WindowStatus.class);
            boolean overdue = false;
            for (String name : names) {
                if (name.equalsIgnoreCase("overdue")) {
                    overdue = true;
                    continue;
                }
                try {
                    named.add(WindowStatus.valueOf(name.trim().toUpperCase(java.util.Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--status " + name + ": use open, held, claimed, closed, merged or overdue");
                }
            }
            if (named.isEmpty() && !overdue) {
                throw new UsageException("--status: name at least one of open, held, claimed, closed, merged or overdue");
            }
            return new Filter(named, overdue);
        }

        /** What the table is asked for. */
        Set<WindowStatus> stored() {
            Set<WindowStatus> scanned = EnumSet.noneOf(WindowStatus.class);
            scanned.addAll(named);
            if (overdue) {
                scanned.addAll(EnumSet.of(WindowStatus.OPEN, WindowStatus.HELD, WindowStatus.CLAIMED));
            }
            return scanned;
        }

        boolean accepts(WindowReport report) {
            return named.contains(report.state().status()) || (overdue && report.overdue());
        }
    }
}
