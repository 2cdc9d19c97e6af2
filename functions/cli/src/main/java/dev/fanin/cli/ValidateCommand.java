package dev.fanin.cli;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import java.util.List;
import java.util.stream.Collectors;

/** {@code fanin validate}: loads a configuration the way the functions do and reports every problem at once. */
public final class ValidateCommand implements Command {

    @Override
    public String name() {
        return "validate";
    }

    @Override
    public String summary() {
        return "check a pipelines file: every problem, one per line, or OK";
    }

    @Override
    public List<Flag> flags() {
        return List.of(ConfigSource.CONFIG);
    }

    @Override
    public String details() {
        return "prints \"OK: N pipelines (names)\" and exits 0, or every problem and \"N problems\" and exits 1.\n";
    }

    @Override
    public int run(List<String> args, Console console) throws UsageException {
        ConfigSource source = ConfigSource.from(Flags.parse(name(), args, flags()));
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
