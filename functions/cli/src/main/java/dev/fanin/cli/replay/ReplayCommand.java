package dev.fanin.cli.replay;

import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.FaninCommand;
import dev.fanin.cli.UsageException;
import dev.fanin.cli.local.RepositoryFiles;
import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.testkit.LocalAwsEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fanin replay}: runs a recorded trace through the real handlers against a local endpoint on a simulated
 * clock and writes what fired. See docs/REPLAY.md.
 */
@Command(name = "replay", description = "replay a recorded trace on a simulated clock and write what would have fired",
        footer = {"",
                "The local endpoint is AWS_ENDPOINT_URL when set, else LocalStack (Docker), else a moto_server started",
                "for the run. Resources come from template.yaml under a fresh prefix.",
                "Example: fanin replay --config functions/core/src/main/resources/fanin/pipelines.yaml \\",
                "           --trace events/traces/alert-storm.jsonl --out /tmp/replay --html /tmp/replay/timeline.html",
                "Exit codes: 0 done, 1 the configuration or trace is wrong, 2 the command line is wrong."})
public final class ReplayCommand extends FaninCommand {

    @Option(names = "--config", paramLabel = "FILE", description = "the pipelines YAML file the functions load (FANIN_CONFIG=file:FILE)")
    private Path config;
    @Option(names = "--trace", paramLabel = "FILE",
            description = "JSON Lines, one SQS message per line: {\"at\": ISO-8601, \"body\": ..., \"messageId\"?, \"attributes\"?}")
    private Path trace;
    @Option(names = "--out", paramLabel = "DIR", description = "where aggregates.jsonl, late.jsonl, dead-letters.jsonl and summary.json go")
    private Path out;
    @Option(names = "--html", paramLabel = "FILE", description = "also draw the windows per key on a time axis, as a self-contained HTML page")
    private Path html;
    @Option(names = "--redeliver", paramLabel = "P", description = "redeliver each handled message again later with probability P (default 0)")
    private double redeliver;
    @Option(names = "--redeliver-within", paramLabel = "DURATION",
            description = "a redelivered message arrives again within this long (default 0s: right after the first delivery)")
    private Duration redeliverWithin = Duration.ZERO;
    @Option(names = "--outage", paramLabel = "OFFSET+LENGTH",
            description = "pause the input queue's consumers from OFFSET after the first message for LENGTH, e.g. 1m+10m (repeatable)")
    private List<String> outages = new java.util.ArrayList<>();
    @Option(names = "--backlog-shuffle", paramLabel = "DURATION",
            description = "an outage's backlog is delivered in random order over this long after it ends (default 20s)")
    private Duration backlogShuffle = Duration.ofSeconds(20);
    @Option(names = "--crash-rate", paramLabel = "P", description = "kill each handler invocation at a random AWS call with probability P (default 0)")
    private double crashRate;
    @Option(names = "--seed", paramLabel = "N", description = "seed of the redelivery and crash choices (default 1)")
    private long seed = 1;
    @Option(names = "--prefix", paramLabel = "NAME", description = "name prefix of the local resources (default: a fresh random one)")
    private String prefix;
    @Option(names = "--resume", description = "continue the replay whose state is in --out (after its process died)")
    private boolean resume;
    @Option(names = "--template", paramLabel = "FILE", description = "the SAM template the resources come from (default: template.yaml found upwards, else the fanin checkout the CLI runs from)")
    private Path template;
    @Option(names = "--log-level", paramLabel = "LEVEL", description = "the functions' log level on stdout (default OFF; e.g. INFO)")
    private String logLevel = "OFF";

    @Override
    protected int run(Console console) throws UsageException {
        ReplayOptions options = options();
        Configurator.setLevel("dev.fanin", Level.toLevel(logLevel, Level.OFF));
        Configurator.setRootLevel(Level.toLevel(logLevel, Level.OFF));
        FaninConfig pipelines;
        List<TraceMessage> messages;
        try {
            pipelines = ConfigLoader.load(options.config());
            messages = TraceReader.read(options.trace());
        } catch (ConfigException rejected) {
            rejected.problems().forEach(console.out()::println);
            return FaninCli.INVALID_INPUT;
        } catch (IllegalArgumentException malformed) {
            console.out().println(malformed.getMessage());
            return FaninCli.INVALID_INPUT;
        }
        LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
        console.err().println("replay: " + messages.size() + " messages from " + options.trace() + " against " + endpoint);
        ReplayState state = new Replay(options, messages, pipelines, endpoint, console.err()).run();
        OutputFiles outputs = new OutputFiles(options.out());
        ReplaySummary summary = new ReplaySummary(outputs, state, messages.size());
        summary.write(options.out().resolve(ReplaySummary.FILE_NAME));
        summary.report().forEach(console.out()::println);
        if (options.html().isPresent()) {
            HtmlTimeline.write(options.html().get(), pipelines, messages, summary.distinctAggregates().values(),
                    outputs.lines(OutputFiles.LATE));
            console.err().println("replay: timeline in " + options.html().get());
        }
        console.err().println("replay: outputs in " + options.out());
        return FaninCli.OK;
    }

    private ReplayOptions options() throws UsageException {
        required("--config FILE", config);
        required("--trace FILE", trace);
        required("--out DIR", out);
        probability("--redeliver P", redeliver);
        probability("--crash-rate P", crashRate);
        if (crashRate >= 1) {
            throw new UsageException("fanin replay: --crash-rate must be below 1, or no invocation would ever finish");
        }
        if (redeliverWithin.isNegative()) {
            throw new UsageException("fanin replay: --redeliver-within DURATION must not be negative");
        }
        if (backlogShuffle.isNegative()) {
            throw new UsageException("fanin replay: --backlog-shuffle DURATION must not be negative");
        }
        List<Outages.Spec> specs = new java.util.ArrayList<>();
        for (String o : outages) {
            try {
                specs.add(Outages.Spec.parse(o));
            } catch (IllegalArgumentException bad) {
                throw new UsageException("fanin replay: " + bad.getMessage());
            }
        }
        if (!Files.isRegularFile(config)) {
            throw new UsageException("fanin replay: --config " + config + " is not a file");
        }
        if (!Files.isRegularFile(trace)) {
            throw new UsageException("fanin replay: --trace " + trace + " is not a file");
        }
        return new ReplayOptions(config, trace, out, Optional.ofNullable(html), redeliver, redeliverWithin, crashRate, seed,
                Optional.ofNullable(prefix), resume, template != null ? template : repositoryTemplate(), specs, backlogShuffle);
    }

    /** The checkout's template.yaml, found as `fanin local` finds it: from the working directory or the CLI's jar. */
    private static Path repositoryTemplate() throws UsageException {
        try {
            return RepositoryFiles.locate().template();
        } catch (IllegalStateException e) {
            throw new UsageException("fanin replay: no template.yaml in the working directory, its parents or the fanin checkout"
                    + " the CLI runs from; give --template FILE");
        }
    }

    private static void required(String synopsis, Path value) throws UsageException {
        if (value == null || value.toString().isBlank()) {
            throw new UsageException("fanin replay: " + synopsis + " is required");
        }
    }

    private static void probability(String synopsis, double p) throws UsageException {
        if (!(p >= 0 && p <= 1)) {
            throw new UsageException("fanin replay: " + synopsis + " must be a probability between 0 and 1, was " + p);
        }
    }
}
