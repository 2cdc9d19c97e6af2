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
import java.util.List;
import java.util.Optional;

/**
 * {@code fanin init}: asks the fan-in designer's questions and writes a pipeline YAML whose every choice follows from
 * the answers, justified in a comment. The file is loaded with {@link ConfigLoader} before it is written.
 */
public final class InitCommand implements Command {

    private static final List<Flag> FLAGS = List.of(
            Flag.valued("name", "NAME", "pipeline name (lower-case letters, digits, '-')"),
            Flag.valued("events", "TEXT", "what the events are, for the file's comments"),
            Flag.valued("envelope", "raw|eventbridge|sns|s3", "how messages reach the SQS queue"),
            Flag.valued("key", "PATHS", "comma-separated key paths; PATH~REGEX keeps the regex's first group"),
            Flag.valued("event-id", "PATH", "the event id for dedupe (empty: the SQS message id)"),
            Flag.valued("event-time", "PATH", "when the event happened (empty: the envelope's time, else the SQS sent time)"),
            Flag.valued("rate", "N", "events per second for one key at the peak of a burst"),
            Flag.valued("action", "TEXT", "what the aggregated action does, for the file's comments"),
            Flag.valued("incomplete", "harmful|suboptimal", "what firing on an incomplete batch is"),
            Flag.valued("grouping", "quiet|fixed|overlapping", "session, tumbling or sliding windows"),
            Flag.valued("quiet-gap", "DURATION", "quiet grouping: the quiet period that ends a burst"),
            Flag.valued("size", "DURATION", "fixed or overlapping grouping: the window size"),
            Flag.valued("slide", "DURATION", "overlapping grouping: how often a window starts"),
            Flag.valued("expected-count", "N", "a batch holds exactly N events"),
            Flag.valued("expected-count-path", "PATH", "the field carrying a batch's size"),
            Flag.valued("sentinel-matches", "REGEX", "an end-of-batch marker: its --sentinel-path field matches REGEX"),
            Flag.valued("sentinel-path", "PATH", "the field --sentinel-matches tests (default $.s3.object.key for s3, else $.type)"),
            Flag.valued("max-delay", "DURATION", "how far an event can trail the newest one (late, out of order)"),
            Flag.valued("deadline", "DURATION", "the aggregate must fire within this of the batch's first event"),
            Flag.valued("out", "FILE", "write the YAML there instead of stdout"),
            Flag.flagSwitch("force", "overwrite --out if it exists"),
            Flag.flagSwitch("non-interactive", "ask nothing: flags, else defaults"));

    @Override
    public String name() {
        return "init";
    }

    @Override
    public String summary() {
        return "ask the fan-in design questions and write a pipeline YAML that follows from the answers";
    }

    @Override
    public List<Flag> flags() {
        return FLAGS;
    }

    @Override
    public String details() {
        return "Questions answered by a flag are not asked; prompts go to stderr, the YAML to stdout or --out.\n"
                + "example: fanin init --non-interactive --name uploads --envelope s3 --sentinel-matches '.*/_SUCCESS' "
                + "--incomplete harmful --out uploads.yaml\n";
    }

    @Override
    public int run(List<String> args, Console console) throws UsageException {
        Flags flags = Flags.parse(name(), args, flags());
        Optional<Path> out = flags.value("out").map(Path::of);
        if (out.isPresent() && Files.exists(out.get()) && !flags.has("force")) {
            throw new UsageException("fanin init: " + out.get() + " exists; give --force to overwrite it or choose another --out");
        }
        boolean interactive = !flags.has("non-interactive");
        if (interactive) {
            console.err().println("fanin init: answer each question, or press Enter for the default in brackets.");
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(console.in(), StandardCharsets.UTF_8));
        InitAnswers answers = Questionnaire.ask(new Asker(flags, interactive, in, console.err()));
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
            return FaninCli.FAILURE;
        }
        if (out.isEmpty()) {
            console.out().print(yaml);
            return FaninCli.OK;
        }
        try {
            Files.writeString(out.get(), yaml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            console.err().println("fanin init: cannot write " + out.get() + ": " + e.getMessage());
            return FaninCli.INVALID_INPUT;
        }
        console.out().println("wrote " + out.get() + "; check it with: fanin validate --config " + out.get());
        return FaninCli.OK;
    }
}
