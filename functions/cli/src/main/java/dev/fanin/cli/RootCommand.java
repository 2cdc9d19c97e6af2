package dev.fanin.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code fanin} itself: holds the console every subcommand talks through; without a command it prints the overview. */
@Command(name = "fanin", subcommands = HelpCommand.class, synopsisSubcommandLabel = "<command>",
        description = "Serverless fan-in aggregation for AWS: run it locally, replay traces, check configurations, operate a stack.",
        footer = {"", "fanin help <command> (or fanin <command> --help) lists a command's flags.",
                "Exit codes: 0 success, 1 the input, the environment or a check is wrong, 2 the command line is wrong."},
        usageHelpAutoWidth = true)
final class RootCommand implements Callable<Integer> {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    @Spec
    private CommandSpec spec;

    private final Console console;

    RootCommand(Console console) {
        this.console = console;
    }

    Console console() {
        return console;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return FaninCli.USAGE;
    }
}
