package dev.fanin.cli.ops;

import dev.fanin.aws.sqs.SqsDeadLetterQueue;
import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.FaninCommand;
import dev.fanin.cli.UsageException;
import dev.fanin.cli.ops.StackOptions.Resource;
import java.util.EnumSet;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fanin dead-letters}: read the input dead-letter queue and move messages back after a fix. */
@Command(name = "dead-letters", description = "list, show and redrive the input dead-letter queue's messages, with fanin's reason",
        subcommands = {DeadLettersCommand.ListLetters.class, DeadLettersCommand.ShowLetter.class, DeadLettersCommand.RedriveLetters.class},
        footer = {"", "Without --stack, give --dead-letter-queue-url (and --input-queue-url to",
                "redrive); nothing else is read. docs/INTAKE.md lists every reason and its",
                "fix; docs/OPERATIONS.md the runbook."})
public final class DeadLettersCommand extends FaninCommand {

    @Override
    protected int run(Console console) {
        spec().commandLine().usage(console.err());
        return FaninCli.USAGE;
    }

    /** {@code fanin dead-letters list}. */
    @Command(name = "list", description = "list dead letters: id, reason, sent time, receive count, the start of the body",
            footer = {"", "Reading hides the messages from other readers for at most 60 s; they are given back at once."})
    static final class ListLetters extends FaninCommand {
        @Mixin
        private StackOptions target;
        @Option(names = "--max", paramLabel = "N", description = "read at most N messages (default ${DEFAULT-VALUE})")
        private int max = 100;
        @Option(names = "--reason", paramLabel = "PREFIX", description = "only messages whose fanin-reason, or one of its codes (fanin-reason-code), starts with PREFIX")
        private String reason;

        @Override
        protected int run(Console console) throws UsageException {
            atLeastOne(max);
            try (Operated stack = Operated.withoutRuntime(target, EnumSet.of(Resource.DEAD_LETTER_QUEUE), console)) {
                List<SqsDeadLetterQueue.Letter> letters = queue(stack).read(max).stream()
                        .filter(l -> reason == null || l.hasReason(reason)).toList();
                for (SqsDeadLetterQueue.Letter l : letters) {
                    console.out().println(l.messageId() + "  " + Times.iso(l.sentAt()) + "  read " + l.receiveCount() + "x  "
                            + (l.reason().isEmpty() ? "(no fanin-reason: SQS moved it after MaxReceiveCount deliveries)" : l.reason())
                            + "  " + preview(l.body()));
                }
                console.out().println(letters.size() + (letters.size() == 1 ? " dead letter" : " dead letters") + " in "
                        + stack.stack().deadLetterQueueUrl());
                return FaninCli.OK;
            }
        }
    }

    /** {@code fanin dead-letters show}. */
    @Command(name = "show", description = "show one dead letter whole: reason, attributes, body")
    static final class ShowLetter extends FaninCommand {
        @Mixin
        private StackOptions target;
        @Option(names = "--message-id", paramLabel = "ID", required = true, description = "the id dead-letters list printed")
        private String messageId;

        @Override
        protected int run(Console console) throws UsageException {
            try (Operated stack = Operated.withoutRuntime(target, EnumSet.of(Resource.DEAD_LETTER_QUEUE), console)) {
                for (SqsDeadLetterQueue.Letter l : queue(stack).read(Integer.MAX_VALUE)) {
                    if (l.messageId().equals(messageId) || l.originalMessageId().equals(messageId)) {
                        console.out().println("message id      " + l.messageId());
                        console.out().println("original id     " + l.originalMessageId() + " (originalMessageId in the functions' logs)");
                        console.out().println("reason code     " + (l.reasonCode().isEmpty() ? "none" : l.reasonCode()));
                        console.out().println("reason          " + (l.reason().isEmpty() ? "none: SQS moved it after MaxReceiveCount deliveries"
                                : l.reason()));
                        console.out().println("sent            " + Times.iso(l.sentAt()) + ", read " + l.receiveCount()
                                + "x from this queue (SQS's ApproximateReceiveCount: each read, this command's too, adds one)");
                        console.out().println("attributes      " + l.attributes());
                        console.out().println("body            " + l.body());
                        return FaninCli.OK;
                    }
                }
                console.err().println("fanin dead-letters show: no message " + messageId + " in " + stack.stack().deadLetterQueueUrl());
                return FaninCli.INVALID_INPUT;
            }
        }
    }

    /** {@code fanin dead-letters redrive}. */
    @Command(name = "redrive", description = "move dead letters back to the input queue after a fix (sent first, deleted after)",
            footer = {"", "A message is deleted from the dead-letter queue only after the input queue took it, so none is lost;",
                    "one sent twice (a failure in between) is counted once by fanin's dedupe. Its SQS sent time is new: events",
                    "whose eventTime falls back to it are timed at the redrive. Asks for confirmation unless --yes."})
    static final class RedriveLetters extends FaninCommand {
        @Mixin
        private StackOptions target;
        @Option(names = "--message-id", paramLabel = "ID", split = ",", description = "only these messages (ids as listed)")
        private List<String> ids;
        @Option(names = "--reason", paramLabel = "PREFIX", description = "only messages whose fanin-reason, or one of its codes (fanin-reason-code), starts with PREFIX")
        private String reason;
        @Option(names = "--all", description = "every message (otherwise give --message-id or --reason)")
        private boolean all;
        @Option(names = "--max", paramLabel = "N", description = "move at most N messages (default ${DEFAULT-VALUE})")
        private int max = 1000;
        @Option(names = "--yes", description = "do not ask for confirmation")
        private boolean yes;

        @Override
        protected int run(Console console) throws Exception {
            if (!all && ids == null && reason == null) {
                throw new UsageException("choose the messages: --message-id ID,..., --reason PREFIX or --all");
            }
            atLeastOne(max);
            try (Operated stack = Operated.withoutRuntime(target, EnumSet.of(Resource.DEAD_LETTER_QUEUE, Resource.INPUT_QUEUE),
                    console)) {
                if (!yes && !Confirm.ask(console, "redrive " + (all ? "every" : "the selected") + " dead letter of "
                        + stack.stack().deadLetterQueueUrl() + " to " + stack.stack().inputQueueUrl() + "?")) {
                    console.err().println("not confirmed: nothing moved (give --yes to redrive without asking)");
                    return FaninCli.USAGE;
                }
                SqsDeadLetterQueue.Redriven result = queue(stack).redrive(stack.stack().inputQueueUrl(),
                        l -> (ids == null || ids.contains(l.messageId()) || ids.contains(l.originalMessageId()))
                                && (reason == null || l.hasReason(reason)), max);
                result.moved().forEach(l -> console.out().println("REDRIVEN  " + l.messageId() + "  " + l.reason()));
                result.kept().forEach(k -> console.out().println("KEPT      " + k.messageId() + "  still a dead letter: " + k.why()));
                console.out().println(result.moved().size() + " redriven to " + stack.stack().inputQueueUrl()
                        + (result.kept().isEmpty() ? "" : ", " + result.kept().size() + " kept"));
                // An id asked for and not found (a typo, or moved already) is not a success to an operator.
                List<String> missing = ids == null ? List.of() : ids.stream().filter(id -> !found(id, result)).toList();
                missing.forEach(id -> console.err().println("fanin dead-letters redrive: " + id + " not redriven: not among the"
                        + " messages read from " + stack.stack().deadLetterQueueUrl() + ", or left by --max or --reason (see"
                        + " fanin dead-letters list)"));
                return result.kept().isEmpty() && missing.isEmpty() ? FaninCli.OK : FaninCli.INVALID_INPUT;
            }
        }
    }

    private static boolean found(String id, SqsDeadLetterQueue.Redriven result) {
        return result.moved().stream().anyMatch(l -> l.messageId().equals(id) || l.originalMessageId().equals(id))
                || result.kept().stream().anyMatch(k -> k.messageId().equals(id));
    }

    private static void atLeastOne(int max) throws UsageException {
        if (max < 1) {
            throw new UsageException("--max must be at least 1, was " + max);
        }
    }

    private static SqsDeadLetterQueue queue(Operated stack) {
        return new SqsDeadLetterQueue(stack.clients().sqs(), stack.stack().deadLetterQueueUrl());
    }

    private static String preview(String body) {
        String oneLine = body.replaceAll("\\s+", " ");
        return oneLine.length() <= 80 ? oneLine : oneLine.substring(0, 77) + "...";
    }
}
