package dev.fanin.cli;

import dev.fanin.cli.explain.ConfigExplainer;
import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import java.util.List;
import java.util.Optional;

/**
 * {@code fanin explain}: renders pipelines as their design document (Markdown on stdout). A broken configuration is
 * reported exactly as {@code fanin validate} reports it, on stderr so that a redirected document never holds it.
 */
public final class ExplainCommand implements Command {

    private static final Flag PIPELINE = Flag.valued("pipeline", "NAME", "explain this pipeline only (default: every pipeline)");

    @Override
    public String name() {
        return "explain";
    }

    @Override
    public String summary() {
        return "render each pipeline as its design document (Markdown): windows, triggers, lateness, state, flush, metrics";
    }

    @Override
    public List<Flag> flags() {
        return List.of(ConfigSource.CONFIG, PIPELINE);
    }

    @Override
    public String details() {
        return "docs/EXPLAIN-EXAMPLE.md is this command's output for the bundled configuration.\n"
                + "exit 1 with every problem (as fanin validate prints them, on stderr) when the configuration is invalid.\n";
    }

    @Override
    public int run(List<String> args, Console console) throws UsageException {
        Flags flags = Flags.parse(name(), args, flags());
        ConfigSource source = ConfigSource.from(flags);
        FaninConfig config;
        try {
            config = source.load();
        } catch (ConfigException rejected) {
            ConfigSource.printProblems(rejected, console.err());
            return FaninCli.INVALID_INPUT;
        }
        Optional<String> only = flags.value(PIPELINE.name());
        List<PipelineConfig> pipelines = config.pipelines();
        if (only.isPresent()) {
            PipelineConfig chosen = config.pipeline(only.get()).orElseThrow(() -> new UsageException("fanin explain: no pipeline \""
                    + only.get() + "\" in " + source.origin() + "; its pipelines are: "
                    + String.join(", ", config.pipelines().stream().map(PipelineConfig::name).toList())));
            pipelines = List.of(chosen);
        }
        console.out().print(ConfigExplainer.explain(config, source.origin(), pipelines));
        return FaninCli.OK;
    }
}
