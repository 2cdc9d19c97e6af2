package dev.fanin.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A {@code fanin} subcommand at any depth: picocli sets its flags, then {@link #run(Console)} does the work with the
 * launcher's streams. Throw {@link UsageException} for a command line picocli cannot check (exit 2); return
 * {@link FaninCli#INVALID_INPUT} when the input or a check is wrong; anything thrown otherwise is reported in one
 * line without a stack trace (exit 1).
 */
public abstract class FaninCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    @Override
    public final Integer call() throws Exception {
        return run(((RootCommand) spec.root().userObject()).console());
    }

    /** {@code fanin windows list}, for messages. */
    protected final String qualifiedName() {
        return spec.qualifiedName();
    }

    protected final CommandSpec spec() {
        return spec;
    }

    protected abstract int run(Console console) throws Exception;
}
