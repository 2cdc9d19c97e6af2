package dev.fanin.cli.ops;

import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.FaninCommand;
import picocli.CommandLine.Command;

/** {@code fanin windows}: the group; its subcommands do the work. */
@Command(name = "windows", description = "list, show and close the windows of a deployed stack",
        subcommands = {ListWindowsCommand.class, ShowWindowCommand.class, CloseWindowsCommand.class},
        footer = {"", "Every subcommand names the stack with --stack NAME (or its resources one by",
                "one) and reads the pipelines: with --stack, where the stack's functions read",
                "them (its PipelineConfigLocation parameter), unless --config FILE names",
                "others; without --stack, --config FILE, else the bundled ones. A pipeline",
                "removed from them is known, as retired, by its last definition in the",
                "table's pipeline history while its windows may be open. AWS_ENDPOINT_URL",
                "points it at a local endpoint. docs/OPERATIONS.md."})
public final class WindowsCommand extends FaninCommand {

    @Override
    protected int run(Console console) {
        spec().commandLine().usage(console.err());
        return FaninCli.USAGE;
    }
}
