package dev.fanin.cli.ops;

import dev.fanin.aws.dynamodb.WindowTableReader;
import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.FaninCommand;
import dev.fanin.cli.UsageException;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.service.MetricNames;
import dev.fanin.core.window.WindowStatus;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@code fanin status}: one screen per pipeline from the table (open-window slots, and a bounded read of the open
 * windows: the oldest against its hard deadline, held and overdue ones), then the stack's queues and its CloudWatch
 * metrics over the last hour (late-event and dead-letter rates), each figure saying where it comes from.
 */
@Command(name = "status", description = "per pipeline: open windows, the oldest against its deadline, held and overdue; late and dead-letter rates",
        footer = {"", "The table part reads the open-window counter (1 read per pipeline) and at most --max-reads Scan requests of",
                "100 items per pipeline; the metrics part is one GetMetricData call (stack-wide: pipeline is not a dimension).",
                "Exits 0; 1 when the stack cannot be read."})
public final class StatusCommand extends FaninCommand {

    @Mixin
    private StackOptions target;
    @Option(names = "--max-reads", paramLabel = "N", description = "Scan requests per pipeline at most (default ${DEFAULT-VALUE})")
    private int maxReads = 10;

    @Override
    protected int run(Console console) throws UsageException {
        if (maxReads < 1) {
            throw new UsageException("--max-reads must be at least 1");
        }
        try (Operated stack = Operated.connect(target, console, Clock.systemUTC(), StackOptions.Resource.INPUT_QUEUE)) {
            Instant now = Instant.now();
            PrintStream out = console.out();
            out.println("fanin status" + stack.stack().stack().map(s -> " of stack " + s).orElse("") + " at " + Times.iso(now));
            for (PipelineConfig pipeline : stack.pipelines()) {
                pipeline(stack, pipeline, now, out);
            }
            queues(stack, out);
            metrics(stack, now, out);
            return FaninCli.OK;
        }
    }

    private void pipeline(Operated stack, PipelineConfig pipeline, Instant now, PrintStream out) {
        long slots = stack.engine().ports().store().openWindows(pipeline.name());
        long watermark = stack.engine().watermark(pipeline.name(), Long.MIN_VALUE, now);
        int open = 0;
        int held = 0;
        int overdue = 0;
        WindowReport oldest = null;
        Optional<String> cursor = Optional.empty();
        int reads = 0;
        do {
            WindowTableReader.HeadPage page = stack.table().heads(Optional.of(pipeline.name()),
                    EnumSet.of(WindowStatus.OPEN, WindowStatus.HELD, WindowStatus.CLAIMED), cursor, 100, maxReads - reads);
            reads += page.reads();
            for (StoredWindow stored : page.windows()) {
                WindowState state = stack.engine().decode(stored);
                WindowReport r = WindowReport.of(state, pipeline, watermark, now);
                open++;
                held += r.isStatus(WindowStatus.HELD) ? 1 : 0;
                overdue += r.overdue() ? 1 : 0;
                oldest = oldest == null || state.openedAt().isBefore(oldest.state().openedAt()) ? r : oldest;
            }
            cursor = page.cursor();
        } while (cursor.isPresent() && reads < maxReads);
        out.println();
        out.println("pipeline " + pipeline.name()
                + (stack.isRetired(pipeline) ? " (retired: no longer configured; its open windows close under its last definition)" : ""));
        out.println("  open-window slots   " + slots + " of " + pipeline.bounds().maxOpenWindows() + " (table: the admission counter)");
        out.println("  open windows        " + open + (cursor.isPresent() ? "+ (table: read " + reads + " pages, more not read; raise --max-reads)"
                : " (table: every open window)") + ", " + held + " held, " + overdue + " overdue");
        if (oldest != null) {
            Duration toDeadline = Duration.between(now, oldest.state().hardDeadline());
            out.println("  oldest open         " + Times.compact(oldest.age()) + " old, hard deadline " + Times.relative(oldest.state().hardDeadline(), now)
                    + (toDeadline.isNegative() ? " (PAST)" : "") + ": " + oldest.state().ref().key() + " " + oldest.state().ref().windowId());
        }
        out.println("  watermark           " + Times.iso(watermark) + " (table: the watermark shards)");
    }

    private static void queues(Operated stack, PrintStream out) {
        out.println();
        out.println("queues (SQS, now)");
        out.println("  input               " + depth(stack, stack.stack().inputQueueUrl()));
        out.println("  input dead letters  " + depth(stack, stack.stack().deadLetterQueueUrl())
                + " (fanin dead-letters list)");
    }

    private static String depth(Operated stack, String queueUrl) {
        Map<QueueAttributeName, String> a = stack.clients().sqs().getQueueAttributes(r -> r.queueUrl(queueUrl).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
        return a.getOrDefault(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, "?") + " waiting, "
                + a.getOrDefault(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, "?") + " in flight";
    }

    private static void metrics(Operated stack, Instant now, PrintStream out) {
        out.println();
        out.println("last hour (CloudWatch, namespace Fanin, whole stack)");
        Map<String, Double> m;
        try {
            m = StackMetrics.read(stack.clients().cloudWatch(), now.minus(Duration.ofHours(1)), now);
        } catch (StackMetrics.Unreadable e) {
            // The error as CloudWatch gave it: access denied (cloudwatch:GetMetricData), throttling, or an endpoint
            // that does not serve the call (a local one) are each fixed differently.
            out.println("  not available: GetMetricData failed: " + e.getMessage());
            return;
        }
        double accepted = m.getOrDefault(MetricNames.EVENTS_ACCEPTED, 0.0);
        double late = m.getOrDefault(MetricNames.LATE_EVENTS, 0.0);
        out.println("  events accepted     " + count(m, MetricNames.EVENTS_ACCEPTED));
        out.println("  late events         " + count(m, MetricNames.LATE_EVENTS)
                + (accepted > 0 ? String.format(" (%.2f%% of accepted)", 100 * late / accepted) : ""));
        out.println("  dead-lettered       " + count(m, MetricNames.DEAD_LETTERED));
        out.println("  emit failures       " + count(m, MetricNames.EMIT_FAILURES));
        out.println("  oldest open (max)   " + (m.containsKey(MetricNames.OLDEST_OPEN_WINDOW_AGE)
                ? Times.compact(Duration.ofSeconds(m.get(MetricNames.OLDEST_OPEN_WINDOW_AGE).longValue())) : "no data"));
        out.println("  overdue (max)       " + count(m, MetricNames.OVERDUE_WINDOWS));
    }

    private static String count(Map<String, Double> m, String name) {
        return m.containsKey(name) ? String.format("%.0f", m.get(name)) : "no data";
    }
}
