package dev.fanin.cli;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code fanin validate}: loads a configuration the way the functions do and reports every problem at once. */
@Command(name = "validate", description = "check a pipelines file: every problem, one per line, or OK",
        footer = "Prints \"OK: N pipelines (names)\" and exits 0, or every problem and \"N problems\" and exits 1.")
public final class ValidateCommand extends FaninCommand {

    @Mixin
    private ConfigSource source;

    @Override
    protected int run(Console console) throws UsageException {
        source.check();
        if (source.isBundled()) {
            console.err().println("no --config given: validating the bundled " + source.origin());
        }
        FaninConfig config;
        try {
            config = source.load();
        } catch (ConfigException rejected) {
            ConfigSource.printProblems(rejected, console.out());
            return FaninCli.INVALID_INPUT;
        }
        int count = config.pipelines().size();
        String names = config.pipelines().stream().map(PipelineConfig::name).collect(Collectors.joining(", "));
        console.out().println("OK: " + count + (count == 1 ? " pipeline" : " pipelines") + " (" + names + ")");
        return FaninCli.OK;
    }
}
