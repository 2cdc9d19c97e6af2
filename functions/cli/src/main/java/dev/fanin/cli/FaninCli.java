package dev.fanin.cli;

import dev.fanin.cli.config.ConfigCommand;
import dev.fanin.cli.local.LocalCommand;
import dev.fanin.cli.ops.DeadLettersCommand;
import dev.fanin.cli.ops.StatusCommand;
import dev.fanin.cli.ops.WindowsCommand;
import dev.fanin.cli.replay.ReplayCommand;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code fanin} launcher: parses {@code fanin <command> [flags]} with picocli and runs the command.
 *
 * <p>Exit codes (README, "Exit codes"): {@value #OK} success; {@value #INVALID_INPUT} the input, the environment or a
 * check is wrong (a bad configuration, an unreachable stack, a failed run, also an unexpected error); {@value #USAGE}
 * the command line is wrong (nothing was done). No error prints a stack trace unless {@code FANIN_STACKTRACE=1}.
 *
 * <p>To add a command, write a {@code @Command}-annotated {@link FaninCommand} (or a group whose {@code subcommands}
 * are such classes, as {@code fanin windows}) and list an instance in {@link #commands()}.
 */
public final class FaninCli {

    public static final int OK = 0;
    public static final int INVALID_INPUT = 1;
    public static final int USAGE = 2;

    private final List<Object> commands;

    /** @param commands {@code @Command} objects, in the order {@code fanin --help} lists them */
    public FaninCli(List<?> commands) {
        this.commands = List.copyOf(commands);
    }

    /** Every subcommand, in the order {@code fanin --help} lists them. */
    public static List<Object> commands() {
        return List.of(new ValidateCommand(), new ExplainCommand(), new InitCommand(), new LocalCommand(), new ReplayCommand(),
                new BenchCommand(), new SimulateCommand(), new WindowsCommand(), new DeadLettersCommand(), new StatusCommand(), new ConfigCommand());
    }

    public static void main(String[] args) {
        System.exit(new FaninCli(commands()).run(args, System.in, System.out, System.err));
    }

    /** Runs one command line in this process's environment; never calls {@code System.exit}. */
    public int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        return run(args, new Console(in, out, err, System.getenv()));
    }

    /** Runs one command line; never calls {@code System.exit}. */
    public int run(String[] args, Console console) {
        PrintStream out = console.out();
        PrintStream err = console.err();
        CommandLine line = new CommandLine(new RootCommand(console));
        commands.forEach(line::addSubcommand);
        readable(line);
        line.registerConverter(Duration.class, Converters::duration);
        line.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        line.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        line.setParameterExceptionHandler(FaninCli::usageError);
        line.setExecutionExceptionHandler((failure, failed, parsed) -> failed(failure, failed));
        return line.execute(args);
    }

    /** Help lists flags in the order they are declared (the order a user meets them), the synopsis in one line. */
    private static void readable(CommandLine command) {
        command.getCommandSpec().usageMessage().sortOptions(false).abbreviateSynopsis(true).descriptionHeading("%n")
                .optionListHeading("%nFlags:%n").commandListHeading("%nCommands:%n").footerHeading("%n");
        command.getSubcommands().values().forEach(FaninCli::readable);
    }

    /** A wrong command line: what is wrong, a did-you-mean where picocli has one, and where the help is. */
    private static int usageError(ParameterException wrong, String[] args) {
        CommandLine command = wrong.getCommandLine();
        PrintWriter err = command.getErr();
        err.println(command.getCommandSpec().qualifiedName() + ": " + wrong.getMessage());
        UnmatchedArgumentException.printSuggestions(wrong, err);
        err.println("run " + command.getCommandSpec().qualifiedName() + " --help for its "
                + (command.getSubcommands().isEmpty() ? "flags" : "commands"));
        err.flush();
        return USAGE;
    }

    private static int failed(Exception failure, CommandLine command) {
        PrintWriter err = command.getErr();
        String name = command.getCommandSpec().qualifiedName();
        if (failure instanceof UsageException usage) {
            err.println(usage.getMessage().startsWith(name) ? usage.getMessage() : name + ": " + usage.getMessage());
            err.println("run " + name + " --help for its flags");
            err.flush();
            return USAGE;
        }
        err.println(name + " failed: " + describe(failure));
        if ("1".equals(System.getenv("FANIN_STACKTRACE"))) {
            failure.printStackTrace(err);
        } else {
            err.println("(FANIN_STACKTRACE=1 prints the stack trace)");
        }
        err.flush();
        return INVALID_INPUT;
    }

    private static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder(failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage());
        for (Throwable cause = failure.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
                text.append(": ").append(cause.getMessage());
            }
        }
        return text.toString();
    }
}
