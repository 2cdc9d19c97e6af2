package dev.fanin.cli;

import dev.fanin.cli.explain.ConfigExplainer;
import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fanin explain}: renders pipelines as their design document (Markdown on stdout). A broken configuration is
 * reported exactly as {@code fanin validate} reports it, on stderr so that a redirected document never holds it.
 */
@Command(name = "explain",
        description = "render each pipeline as its design document (Markdown): windows, triggers, lateness, state, flush, metrics",
        footer = {"docs/EXPLAIN-EXAMPLE.md is this command's output for the bundled configuration.",
                "Exits 1 with every problem (as fanin validate prints them, on stderr) when the configuration is invalid."})
public final class ExplainCommand extends FaninCommand {

    @Mixin
    private ConfigSource source;

    @Option(names = "--pipeline", paramLabel = "NAME", description = "explain this pipeline only (default: every pipeline)")
    private String only;

    @Override
    protected int run(Console console) throws UsageException {
        source.check();
        FaninConfig config;
        try {
            config = source.load();
        } catch (ConfigException rejected) {
            ConfigSource.printProblems(rejected, console.err());
            return FaninCli.INVALID_INPUT;
        }
        List<PipelineConfig> pipelines = config.pipelines();
        if (only != null) {
            PipelineConfig chosen = config.pipeline(only).orElseThrow(() -> new UsageException("fanin explain: no pipeline \""
                    + only + "\" in " + source.origin() + "; its pipelines are: "
                    + String.join(", ", config.pipelines().stream().map(PipelineConfig::name).toList())));
            pipelines = List.of(chosen);
        }
        console.out().print(ConfigExplainer.explain(config, source.origin(), pipelines));
        return FaninCli.OK;
    }
}
