package dev.fanin.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import dev.fanin.cli.local.LocalCommand;
import java.util.Map;

/**
 * The {@code fanin} launcher: dispatches {@code fanin <command> [--flag value ...]} to a {@link Command}.
 *
 * <p>Exit codes: 0 success, 1 the configuration (or other input) is wrong, 2 the command line is wrong or the
 * command is not available, 3 an unexpected failure (a bug: the stack trace goes to stderr).
 */
public final class FaninCli {

    public static final int OK = 0;
    public static final int INVALID_INPUT = 1;
    public static final int USAGE = 2;
    public static final int FAILURE = 3;

    private final Map<String, Command> commands;

    public FaninCli(Map<String, Command> commands) {
        this.commands = Collections.unmodifiableMap(new LinkedHashMap<>(commands));
    }

    /**
     * Every subcommand, in the order {@code fanin --help} lists them. To add one, put it here: name, then the
     * command object (its {@link Command#summary()} is the help line).
     */
    public static Map<String, Command> commands() {
        Map<String, Command> commands = new LinkedHashMap<>();
        register(commands, new ValidateCommand());
        register(commands, new ExplainCommand());
        register(commands, new InitCommand());
        register(commands, new LocalCommand());
        register(commands, new dev.fanin.cli.replay.ReplayCommand());
        register(commands, new BenchCommand());
        register(commands, new SimulateCommand());
        return commands;
    }

    private static void register(Map<String, Command> commands, Command command) {
        commands.put(command.name(), command);
    }

    public static void main(String[] args) {
        System.exit(new FaninCli(commands()).run(args, System.in, System.out, System.err));
    }

    /** Runs one command line; never calls {@code System.exit}. */
    public int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        Console console = new Console(in, out, err);
        List<String> arguments = Arrays.asList(args);
        if (arguments.isEmpty()) {
            err.print(overview());
            return USAGE;
        }
        String first = arguments.get(0);
        if (first.equals("--help") || first.equals("-h")) {
            out.print(overview());
            return OK;
        }
        if (first.equals("help")) {
            return help(arguments.subList(1, arguments.size()), console);
        }
        Command command = commands.get(first);
        if (command == null) {
            err.println("fanin: unknown command \"" + first + "\"; the commands are: " + String.join(", ", commands.keySet()));
            err.println("run fanin --help for what each does");
            return USAGE;
        }
        List<String> rest = arguments.subList(1, arguments.size());
        if (rest.contains("--help") || rest.contains("-h")) {
            out.print(help(command));
            return OK;
        }
        try {
            return command.run(rest, console);
        } catch (UsageException e) {
            err.println(e.getMessage());
            err.println("run fanin help " + command.name() + " for its flags");
            return USAGE;
        } catch (RuntimeException e) {
            err.println("fanin " + command.name() + " failed unexpectedly: " + e);
            e.printStackTrace(err);
            return FAILURE;
        }
    }

    private int help(List<String> topic, Console console) {
        if (topic.isEmpty()) {
            console.out().print(overview());
            return OK;
        }
        Command command = commands.get(topic.get(0));
        if (command == null || topic.size() > 1) {
            console.err().println("fanin help: no command \"" + String.join(" ", topic) + "\"; the commands are: "
                    + String.join(", ", commands.keySet()));
            return USAGE;
        }
        console.out().print(help(command));
        return OK;
    }

    private String overview() {
        int width = commands.keySet().stream().mapToInt(String::length).max().orElse(0);
        StringBuilder text = new StringBuilder("usage: fanin <command> [--flag value ...]\n\ncommands:\n");
        for (Command command : commands.values()) {
            text.append("  ").append(pad(command.name(), width)).append("  ").append(command.summary()).append('\n');
        }
        text.append("\nfanin help <command> (or fanin <command> --help) lists a command's flags.\n");
        return text.toString();
    }

    static String help(Command command) {
        StringBuilder text = new StringBuilder("usage: fanin ").append(command.name());
        if (!command.flags().isEmpty()) {
            text.append(" [flags]");
        }
        text.append("\n\n").append(command.summary()).append('\n');
        if (!command.flags().isEmpty()) {
            int width = command.flags().stream().mapToInt(flag -> flag.synopsis().length()).max().orElse(0);
            text.append("\nflags (--flag value or --flag=value):\n");
            for (Flag flag : command.flags()) {
                text.append("  ").append(pad(flag.synopsis(), width)).append("  ").append(flag.help()).append('\n');
            }
        }
        if (!command.details().isEmpty()) {
            text.append('\n').append(command.details());
            if (!command.details().endsWith("\n")) {
                text.append('\n');
            }
        }
        return text.toString();
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }
}
