package dev.fanin.cli;

import java.util.List;

/**
 * A subcommand that is announced but not part of this build: it says so and exits 2 rather than pretending.
 * Replace its registration in {@link FaninCli#commands()} with the real command.
 */
final class NotAvailableCommand implements Command {

    private final String name;
    private final String summary;

    NotAvailableCommand(String name, String summary) {
        this.name = name;
        this.summary = summary;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String summary() {
        return summary + " (not available in this build yet)";
    }

    @Override
    public List<Flag> flags() {
        return List.of();
    }

    @Override
    public int run(List<String> args, Console console) {
        console.err().println("fanin " + name + " is not available in this build yet; see fanin --help for the commands that are");
        return FaninCli.USAGE;
    }
}
