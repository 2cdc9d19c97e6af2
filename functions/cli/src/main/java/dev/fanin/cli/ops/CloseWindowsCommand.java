package dev.fanin.cli.ops;

import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.FaninCommand;
import dev.fanin.cli.UsageException;
import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.emit.AggregateEvent;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.service.OperatorService;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fanin windows close}: closes one window, or the held (or open) windows of a pipeline, now, as an explicit
 * operator decision: the functions' own claim, emit and commit, reason OPERATOR, {@code complete} as the window stands,
 * the note in the aggregate. A window some other close claimed first is reported, not closed again; one claimed whose
 * emission then fails is reported CLAIMED with why, not CLOSED.
 */
@Command(name = "close", description = "close a window (or a pipeline's held windows) now: reason OPERATOR, exactly once, with your note",
        footer = {"", "examples:",
                "  fanin windows close --stack fanin --pipeline file-uploads --key 'acme|uploads/b7' --window S001764583212000 \\",
                "      --note 'manifest lists a file that was never uploaded; INC-1234'",
                "  fanin windows close --stack fanin --pipeline shard-completions --all-held --note 'shard host lost' --yes",
                "Asks for confirmation on the terminal unless --yes. Exits 0 when every selected window is closed (by this",
                "command or by a close that won the race), 1 when one was not found, kept conflicting, or was claimed but",
                "its emission failed (it stays CLAIMED: the line says why), 2 when not confirmed."})
final class CloseWindowsCommand extends FaninCommand {

    @Mixin
    private StackOptions target;
    @Mixin
    private WindowSelector window;
    @Option(names = "--all-held", description = "every held window of --pipeline (up to --limit) instead of one: HELD, or a continuation holding its late events")
    private boolean allHeld;
    @Option(names = "--limit", paramLabel = "N", description = "with --all-held: close at most N windows (default ${DEFAULT-VALUE})")
    private int limit = 100;
    @Option(names = "--note", paramLabel = "TEXT", required = true,
            description = "why: goes into the aggregate as operatorNote (1 to 1000 characters, one line)")
    private String note;
    @Option(names = "--yes", description = "do not ask for confirmation")
    private boolean yes;

    @Override
    protected int run(Console console) throws Exception {
        if (!AggregateEvent.isNote(note)) {
            throw new UsageException("--note: " + AggregateEvent.NOTE_RULE);
        }
        if (allHeld == (window.key != null || window.windowId != null)) {
            throw new UsageException("give either --key and --window (one window) or --all-held (a pipeline's held windows)");
        }
        if (limit < 1) {
            throw new UsageException("--limit must be at least 1, was " + limit);
        }
        try (Operated stack = Operated.connect(target, console, Clock.systemUTC())) {
            stack.pipeline(window.pipeline);
            List<WindowRef> selected = allHeld ? held(stack) : List.of(window.ref());
            if (selected.isEmpty()) {
                console.out().println("no HELD window in pipeline " + window.pipeline + "; nothing to close");
                return FaninCli.OK;
            }
            if (!yes && !confirmed(console, selected)) {
                console.err().println("not confirmed: nothing closed (give --yes to close without asking)");
                return FaninCli.USAGE;
            }
            OperatorService operator = new OperatorService(stack.engine());
            boolean allClosed = true;
            for (WindowRef ref : selected) {
                OperatorService.Result result = operator.close(ref, note);
                console.out().println(line(stack, ref, result));
                allClosed &= result.outcome() == OperatorService.Outcome.CLOSED || closedBefore(result, stack.engine().clock().instant());
            }
            return allClosed ? FaninCli.OK : FaninCli.INVALID_INPUT;
        }
    }

    /**
     * Whether a window this close found not open is closed or being closed by the close that came first. One CLAIMED
     * past its lease without a commit is neither: its emission is failing (or its claimer died), so exit 1.
     */
    private static boolean closedBefore(OperatorService.Result result, Instant now) {
        return result.outcome() == OperatorService.Outcome.NOT_OPEN && !stuck(result.state(), now);
    }

    private static boolean stuck(WindowState state, Instant now) {
        return state.status() == WindowStatus.CLAIMED && !now.isBefore(state.leaseUntil());
    }

    /**
     * The pipeline's held windows: HELD ones, and CLOSED continuations whose late events are held
     * ({@link WindowState#heldContinuation}), found among the closed heads the same scan reads.
     */
    private List<WindowRef> held(Operated stack) throws UsageException {
        PipelineConfig pipeline = stack.pipeline(window.pipeline);
        List<WindowRef> refs = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            var page = stack.table().heads(Optional.of(window.pipeline), EnumSet.of(WindowStatus.HELD, WindowStatus.CLOSED), cursor,
                    Math.min(limit, 1000), 10);
            page.windows().stream().filter(w -> isHeld(stack.engine().decode(w), pipeline)).map(StoredWindow::ref)
                    .limit(limit - refs.size()).forEach(refs::add);
            cursor = page.cursor();
        } while (cursor.isPresent() && refs.size() < limit);
        return refs;
    }

    private static boolean isHeld(WindowState state, PipelineConfig pipeline) {
        return state.status() == WindowStatus.HELD || state.heldContinuation(pipeline);
    }

    private static boolean confirmed(Console console, List<WindowRef> selected) throws IOException {
        console.err().println("about to close, with reason OPERATOR:");
        selected.forEach(ref -> console.err().println("  " + ref.pipeline() + "  " + ref.key() + "  " + ref.windowId()));
        return Confirm.ask(console, "close " + selected.size() + (selected.size() == 1 ? " window" : " windows") + "?");
    }

    /**
     * Why the emission failed. A NoTarget error means the pipeline has no emit target here: a retired pipeline whose
     * recorded target does not resolve with the stack's variables. The emitter's text points at a log line this
     * command does not print, so the target is named instead.
     */
    private static String emitFailure(Operated stack, WindowRef ref, String error) {
        if (!error.startsWith("NoTarget")) {
            return "emission failed: " + error;
        }
        PipelineConfig pipeline = stack.known(ref.pipeline()).orElseThrow();
        return "emission failed, its target is missing: pipeline " + pipeline.name() + (stack.isRetired(pipeline) ? " (retired)" : "")
                + " emits to " + target(pipeline.emit()) + ", which does not resolve with the stack's variables (NoTarget)";
    }

    private static String target(EmitTarget target) {
        return target instanceof EmitTarget.Sqs sqs ? "SQS queue " + sqs.queueUrl()
                : "EventBridge bus " + ((EmitTarget.EventBridge) target).busName();
    }

    /** "incomplete (2 of 4, missing 1, 3)" or "complete (5 events)", as emitted. */
    private static String completeness(AggregateEvent a) {
        String counts = a.expected() == null ? a.seen() + " events" : a.seen() + " of " + a.expected()
                + (a.missing() == null || a.missing().isEmpty() ? "" : ", missing " + Members.ranges(a.missing()) + (a.missingTruncated() ? ", ..." : ""));
        return (a.complete() ? "complete" : "incomplete") + " (" + counts + ")";
    }

    private static String line(Operated stack, WindowRef ref, OperatorService.Result result) {
        String window = ref.pipeline() + "  " + ref.key() + "  " + ref.windowId();
        WindowState state = result.state();
        return switch (result.outcome()) {
            case CLOSED -> result.aggregate() == null
                    ? "CLOSED      " + window + "  nothing to emit: its last revision closed full (SIZE_LIMIT) and no event came after it"
                    : "CLOSED      " + window + "  OPERATOR  " + completeness(result.aggregate()) + "  aggregate "
                    + result.aggregate().aggregateId()
                    + (state.status() == WindowStatus.CLAIMED ? "  (emitted, not committed: the sweeper finishes it when the lease ends)"
                            : "");
            case EMIT_FAILED -> "CLAIMED     " + window + "  OPERATOR  " + completeness(result.aggregate()) + "  aggregate "
                    + result.aggregate().aggregateId() + "  " + emitFailure(stack, ref, result.emitError()) + "; it stays claimed, and the"
                    + " sweeper emits it after its lease (" + Times.iso(state.leaseUntil()) + ") only once its target takes it";
            case NOT_OPEN -> stuck(state, stack.engine().clock().instant())
                    ? "NOT CLOSED  " + window + "  it is CLAIMED by " + state.claim().reason() + " already, past its lease ("
                            + Times.iso(state.leaseUntil()) + ") without a commit: its emission is failing or its claimer died;"
                            + " the sweeper re-emits it until its target takes it (see EmitFailures; fanin windows show)"
                    : state.keepsVerdictsOnly()
                            ? "NOT CLOSED  " + window + "  it never opened: it only keeps the too-late verdicts of its events"
                    : "NOT CLOSED  " + window + "  it is " + state.status()
                            + (state.claim() != null ? " by " + state.claim().reason() : "") + " already: the close that came first stands";
            case NOT_FOUND -> "NOT FOUND   " + window;
            case CONFLICTED -> "CONFLICTED  " + window + "  other writers kept changing it; nothing written, try again";
        };
    }
}
