package dev.fanin.cli;

import java.util.List;

/** One subcommand of the {@code fanin} launcher. */
public interface Command {

    /** The word after {@code fanin}, e.g. {@code validate}. */
    String name();

    /** One line for {@code fanin --help}. */
    String summary();

    /** The flags {@code fanin help <name>} lists. */
    List<Flag> flags();

    /** More help after the flags (examples, exit codes); may be empty. */
    default String details() {
        return "";
    }

    /**
     * Runs the command.
     *
     * @return the process exit code: 0 success, 1 the input (configuration) is wrong, 2 the command line is wrong
     * @throws UsageException when the command line is wrong; the launcher prints it and exits 2
     */
    int run(List<String> args, Console console) throws UsageException;
}
