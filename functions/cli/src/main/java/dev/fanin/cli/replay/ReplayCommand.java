package dev.fanin.cli.replay;

import dev.fanin.cli.Command;
import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.Flag;
import dev.fanin.cli.Flags;
import dev.fanin.cli.UsageException;
import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.Durations;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.TemplateResources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * {@code fanin replay}: runs a recorded trace through the real handlers against a local endpoint on a simulated
 * clock and writes what fired. See docs/REPLAY.md.
 */
public final class ReplayCommand implements Command {

    static final Flag CONFIG = Flag.valued("config", "FILE", "the pipelines YAML file the functions load (FANIN_CONFIG=file:FILE)");
    static final Flag TRACE = Flag.valued("trace", "FILE", "JSON Lines, one SQS message per line: {\"at\": ISO-8601, \"body\": ..., \"messageId\"?, \"attributes\"?}");
    static final Flag OUT = Flag.valued("out", "DIR", "where aggregates.jsonl, late.jsonl, dead-letters.jsonl and summary.json go");
    static final Flag HTML = Flag.valued("html", "FILE", "also draw the windows per key on a time axis, as a self-contained HTML page");
    static final Flag REDELIVER = Flag.valued("redeliver", "P", "redeliver each handled message again later with probability P (default 0)");
    static final Flag REDELIVER_WITHIN = Flag.valued("redeliver-within", "DURATION", "a redelivered message arrives again within this long (default 0s: right after the first delivery)");
    static final Flag CRASH_RATE = Flag.valued("crash-rate", "P", "kill each handler invocation at a random AWS call with probability P (default 0)");
    static final Flag SEED = Flag.valued("seed", "N", "seed of the redelivery and crash choices (default 1)");
    static final Flag PREFIX = Flag.valued("prefix", "NAME", "name prefix of the local resources (default: a fresh random one)");
    static final Flag RESUME = Flag.flagSwitch("resume", "continue the replay whose state is in --out (after its process died)");
    static final Flag TEMPLATE = Flag.valued("template", "FILE", "the SAM template the resources come from (default: template.yaml found upwards)");
    static final Flag LOG_LEVEL = Flag.valued("log-level", "LEVEL", "the functions' log level on stdout (default OFF; e.g. INFO)");

    @Override
    public String name() {
        return "replay";
    }

    @Override
    public String summary() {
        return "replay a recorded trace on a simulated clock and write what would have fired";
    }

    @Override
    public List<Flag> flags() {
        return List.of(CONFIG, TRACE, OUT, HTML, REDELIVER, REDELIVER_WITHIN, CRASH_RATE, SEED, PREFIX, RESUME, TEMPLATE, LOG_LEVEL);
    }

    @Override
    public String details() {
        return """
                The local endpoint is AWS_ENDPOINT_URL when set, else LocalStack (Docker), else a moto_server started
                for the run. Resources come from template.yaml under a fresh prefix.
                Example: fanin replay --config functions/core/src/main/resources/fanin/pipelines.yaml \\
                           --trace events/traces/alert-storm.jsonl --out /tmp/replay --html /tmp/replay/timeline.html
                Exit codes: 0 done, 1 the configuration or trace is wrong, 2 the command line is wrong.
                """;
    }

    @Override
    public int run(List<String> args, Console console) throws UsageException {
        Flags flags = Flags.parse(name(), args, flags());
        ReplayOptions options = options(flags);
        Configurator.setLevel("dev.fanin", Level.toLevel(flags.value(LOG_LEVEL.name()).orElse("OFF"), Level.OFF));
        Configurator.setRootLevel(Level.toLevel(flags.value(LOG_LEVEL.name()).orElse("OFF"), Level.OFF));
        FaninConfig config;
        List<TraceMessage> trace;
        try {
            config = ConfigLoader.load(options.config());
            trace = TraceReader.read(options.trace());
        } catch (ConfigException rejected) {
            rejected.problems().forEach(console.out()::println);
            return FaninCli.INVALID_INPUT;
        } catch (IllegalArgumentException malformed) {
            console.out().println(malformed.getMessage());
            return FaninCli.INVALID_INPUT;
        }
        LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
        console.err().println("replay: " + trace.size() + " messages from " + options.trace() + " against " + endpoint);
        ReplayState state = new Replay(options, trace, config, endpoint, console.err()).run();
        OutputFiles outputs = new OutputFiles(options.out());
        ReplaySummary summary = new ReplaySummary(outputs, state, trace.size());
        summary.write(options.out().resolve(ReplaySummary.FILE_NAME));
        summary.report().forEach(console.out()::println);
        if (options.html().isPresent()) {
            HtmlTimeline.write(options.html().get(), config, trace, summary.distinctAggregates().values(),
                    outputs.lines(OutputFiles.LATE));
            console.err().println("replay: timeline in " + options.html().get());
        }
        console.err().println("replay: outputs in " + options.out());
        return FaninCli.OK;
    }

    private static ReplayOptions options(Flags flags) throws UsageException {
        Path config = path(flags, CONFIG);
        Path trace = path(flags, TRACE);
        Path out = path(flags, OUT);
        double redeliver = probability(flags, REDELIVER);
        Duration redeliverWithin;
        try {
            redeliverWithin = Durations.parse(flags.value(REDELIVER_WITHIN.name()).orElse("0s"));
        } catch (IllegalArgumentException e) {
            throw new UsageException("fanin replay: " + REDELIVER_WITHIN.synopsis() + ": " + e.getMessage());
        }
        if (redeliverWithin.isNegative()) {
            throw new UsageException("fanin replay: " + REDELIVER_WITHIN.synopsis() + " must not be negative");
        }
        double crashRate = probability(flags, CRASH_RATE);
        if (crashRate >= 1) {
            throw new UsageException("fanin replay: --crash-rate must be below 1, or no invocation would ever finish");
        }
        long seed;
        try {
            seed = Long.parseLong(flags.value(SEED.name()).orElse("1"));
        } catch (NumberFormatException e) {
            throw new UsageException("fanin replay: --seed must be a whole number: " + SEED.synopsis());
        }
        Path template = flags.value(TEMPLATE.name()).map(Path::of).orElseGet(TemplateResources::locateTemplate);
        if (!Files.isRegularFile(config)) {
            throw new UsageException("fanin replay: --config " + config + " is not a file");
        }
        if (!Files.isRegularFile(trace)) {
            throw new UsageException("fanin replay: --trace " + trace + " is not a file");
        }
        return new ReplayOptions(config, trace, out, flags.value(HTML.name()).map(Path::of), redeliver, redeliverWithin, crashRate, seed,
                flags.value(PREFIX.name()), flags.has(RESUME.name()), template);
    }

    private static Path path(Flags flags, Flag flag) throws UsageException {
        Optional<String> value = flags.value(flag.name());
        if (value.isEmpty() || value.get().isBlank()) {
            throw new UsageException("fanin replay: " + flag.synopsis() + " is required");
        }
        return Path.of(value.get());
    }

    private static double probability(Flags flags, Flag flag) throws UsageException {
        String text = flags.value(flag.name()).orElse("0");
        try {
            double p = Double.parseDouble(text);
            if (p >= 0 && p <= 1) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("fanin replay: " + flag.synopsis() + " must be a probability between 0 and 1, was \"" + text + "\"");
    }
}
