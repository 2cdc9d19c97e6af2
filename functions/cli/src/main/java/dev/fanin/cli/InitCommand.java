package dev.fanin.cli;

import dev.fanin.cli.init.Asker;
import dev.fanin.cli.init.InitAnswers;
import dev.fanin.cli.init.PipelineYaml;
import dev.fanin.cli.init.Questionnaire;
import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * {@code fanin init}: asks the fan-in designer's questions and writes a pipeline YAML whose every choice follows from
 * the answers, justified in a comment. The file is loaded with {@link ConfigLoader} before it is written.
 *
 * <p>The answer flags are declared for picocli (help, did-you-mean, a value each) and read by {@link Asker} from the
 * parse result by name: a question whose flag was given is not asked.
 */
@Command(name = "init", description = "ask the fan-in design questions and write a pipeline YAML that follows from the answers",
        footer = {"Questions answered by a flag are not asked; prompts go to stderr, the YAML to stdout or --out.",
                "example: fanin init --non-interactive --name uploads --envelope s3 --sentinel-matches '.*/_SUCCESS' "
                        + "--incomplete harmful --out uploads.yaml"})
public final class InitCommand extends FaninCommand {

    @Option(names = "--name", paramLabel = "NAME", description = "pipeline name (lower-case letters, digits, '-')")
    String name;
    @Option(names = "--events", paramLabel = "TEXT", description = "what the events are, for the file's comments")
    String events;
    @Option(names = "--envelope", paramLabel = "raw|eventbridge|sns|s3", description = "how messages reach the SQS queue")
    String envelope;
    @Option(names = "--key", paramLabel = "PATHS", description = "comma-separated key paths; PATH~REGEX keeps the regex's first group")
    String key;
    @Option(names = "--event-id", paramLabel = "PATH", description = "the event id for dedupe (empty: the SQS message id)")
    String eventId;
    @Option(names = "--event-time", paramLabel = "PATH",
            description = "when the event happened (empty: the envelope's time, else the SQS sent time)")
    String eventTime;
    @Option(names = "--rate", paramLabel = "N", description = "events per second for one key at the peak of a burst")
    String rate;
    @Option(names = "--action", paramLabel = "TEXT", description = "what the aggregated action does, for the file's comments")
    String action;
    @Option(names = "--incomplete", paramLabel = "harmful|suboptimal", description = "what firing on an incomplete batch is")
    String incomplete;
    @Option(names = "--grouping", paramLabel = "quiet|fixed|overlapping", description = "session, tumbling or sliding windows")
    String grouping;
    @Option(names = "--quiet-gap", paramLabel = "DURATION", description = "quiet grouping: the quiet period that ends a burst")
    String quietGap;
    @Option(names = "--size", paramLabel = "DURATION", description = "fixed or overlapping grouping: the window size")
    String size;
    @Option(names = "--slide", paramLabel = "DURATION", description = "overlapping grouping: how often a window starts")
    String slide;
    @Option(names = "--expected-count", paramLabel = "N", description = "a batch holds exactly N events")
    String expectedCount;
    @Option(names = "--expected-count-path", paramLabel = "PATH", description = "the field carrying a batch's size")
    String expectedCountPath;
    @Option(names = "--sentinel-matches", paramLabel = "REGEX",
            description = "an end-of-batch marker: its --sentinel-path field matches REGEX")
    String sentinelMatches;
    @Option(names = "--sentinel-path", paramLabel = "PATH",
            description = "the field --sentinel-matches tests (default $.s3.object.key for s3, else $.type)")
    String sentinelPath;
    @Option(names = "--max-delay", paramLabel = "DURATION", description = "how far an event can trail the newest one (late, out of order)")
    String maxDelay;
    @Option(names = "--deadline", paramLabel = "DURATION", description = "the aggregate must fire within this of the batch's first event")
    String deadline;

    @Option(names = "--out", paramLabel = "FILE", description = "write the YAML there instead of stdout")
    private Path out;
    @Option(names = "--force", description = "overwrite --out if it exists")
    private boolean force;
    @Option(names = "--non-interactive", description = "ask nothing: flags, else defaults")
    private boolean nonInteractive;

    @Override
    protected int run(Console console) throws UsageException {
        if (out != null && Files.exists(out) && !force) {
            throw new UsageException("fanin init: " + out + " exists; give --force to overwrite it or choose another --out");
        }
        boolean interactive = !nonInteractive;
        if (interactive) {
            console.err().println("fanin init: answer each question, or press Enter for the default in brackets.");
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(console.in(), StandardCharsets.UTF_8));
        InitAnswers answers = Questionnaire.ask(new Asker(givenAnswers(), interactive, in, console.err()));
        String yaml;
        try {
            yaml = PipelineYaml.write(answers);
        } catch (IllegalArgumentException refused) {
            throw new UsageException("fanin init: " + refused.getMessage());
        }
        try {
            ConfigLoader.load(yaml, "fanin init output");
        } catch (ConfigException bug) {
            console.err().println("fanin init wrote a configuration the loader rejects; this is a bug in fanin init:");
            ConfigSource.printProblems(bug, console.err());
            console.err().print(yaml);
            return FaninCli.INVALID_INPUT;
        }
        if (out == null) {
            console.out().print(yaml);
            return FaninCli.OK;
        }
        try {
            Files.writeString(out, yaml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            console.err().println("fanin init: cannot write " + out + ": " + e.getMessage());
            return FaninCli.INVALID_INPUT;
        }
        console.out().println("wrote " + out + "; check it with: fanin validate --config " + out);
        return FaninCli.OK;
    }

    /** The answer flags given on this command line (the String-valued ones), by name without dashes. */
    private Map<String, String> givenAnswers() {
        Map<String, String> given = new LinkedHashMap<>();
        for (OptionSpec option : spec().commandLine().getParseResult().matchedOptions()) {
            if (option.type() == String.class) {
                given.put(option.longestName().substring(2), option.getValue());
            }
        }
        return given;
    }
}
