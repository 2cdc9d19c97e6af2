package dev.fanin.cli.config;

import dev.fanin.cli.ConfigSource;
import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.FaninCommand;
import dev.fanin.cli.QuietLogs;
import dev.fanin.cli.UsageException;
import dev.fanin.cli.ops.Confirm;
import dev.fanin.cli.ops.OperatorClients;
import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.lambda.ConfigLocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fanin config}: compare a pipelines file with a stack's published configuration, and publish it. */
@Command(name = "config", description = "diff and publish the pipelines configuration of a deployed stack",
        subcommands = {ConfigCommand.Diff.class, ConfigCommand.Publish.class},
        footer = {"", "publish writes where the stack's PipelineConfigLocation points: an S3 object,",
                "an SSM parameter or an AppConfig profile (a hosted configuration version, then",
                "its deployment). docs/CONFIGURATION.md, \"Changing the configuration with open",
                "windows\", says what each change does."})
public final class ConfigCommand extends FaninCommand {

    @Override
    protected int run(Console console) {
        spec().commandLine().usage(console.err());
        return FaninCli.USAGE;
    }

    /** What diff and publish share: the target, the new file validated, and the published document read. */
    abstract static class Comparing extends FaninCommand {
        @Mixin
        ConfigTarget target;
        @Parameters(paramLabel = "FILE", description = "the pipelines YAML file to compare (and publish)")
        Path file;

        @Override
        protected final int run(Console console) throws Exception {
            target.check();
            if (!Files.isRegularFile(file)) {
                throw new UsageException(file + ": no such file");
            }
            String text = Files.readString(file, StandardCharsets.UTF_8);
            FaninConfig next;
            try {
                next = ConfigLoader.load(text, file.toString());
            } catch (ConfigException rejected) {
                console.out().println(file + " is invalid; nothing was compared or published:");
                ConfigSource.printProblems(rejected, console.out());
                return FaninCli.INVALID_INPUT;
            }
            QuietLogs.off();
            Optional<ConfigLocation> local = target.local();
            if (local.isPresent()) {
                return runnable(next, target.localEnvironment(), console)
                        ? compare(local.get(), ConfigStore.local(local.get()), text, next, console) : FaninCli.INVALID_INPUT;
            }
            try (OperatorClients clients = new OperatorClients(console.env())) {
                ConfigTarget.Resolved resolved = target.resolve(clients);
                return runnable(next, resolved.environment(), console)
                        ? compare(resolved.location(), ConfigStore.at(resolved.location(), clients, deploymentStrategy()), text, next, console)
                        : FaninCli.INVALID_INPUT;
            }
        }

        /** Whether the functions can build {@code next}'s emit targets, as each does before taking a configuration. */
        private boolean runnable(FaninConfig next, FunctionEnvironment environment, Console console) {
            Optional<String> problem = environment.problem(next);
            problem.ifPresent(p -> console.out().println(file + " cannot run on the functions; nothing was compared or published: " + p));
            return problem.isEmpty();
        }

        private int compare(ConfigLocation location, ConfigStore store, String text, FaninConfig next, Console console)
                throws IOException {
            Optional<String> published;
            try {
                published = store.read();
            } catch (IllegalStateException unreadable) {
                unreadable(store, console);
                throw unreadable;
            }
            PendingChange change = new PendingChange(location, published, text, next);
            change.print(console.out());
            return then(change, store, console);
        }

        /** The AppConfig deployment strategy a publish uses. */
        String deploymentStrategy() {
            return AppConfigStore.ALL_AT_ONCE;
        }

        /** What to say before the failure to read the published document is reported. */
        void unreadable(ConfigStore store, Console console) {
        }

        abstract int then(PendingChange change, ConfigStore store, Console console) throws IOException;
    }

    @Command(name = "diff", description = "what publishing FILE would change, pipeline by pipeline, and what each change"
            + " does to the windows open then", footer = {"", "Exits 0 with the changes (or \"no change\"), 1 when FILE is invalid."})
    static final class Diff extends Comparing {
        @Override
        int then(PendingChange change, ConfigStore store, Console console) {
            return FaninCli.OK;
        }
    }

    @Command(name = "publish", description = "validate FILE, show what it changes, and publish it where the stack's functions"
            + " read their pipelines", footer = {"", "An invalid FILE is refused with every problem and nothing is written (exit 1); asks first unless --yes.",
                    "The functions read the new document within a minute (AppConfig: as the deployment strategy rolls it out)."})
    static final class Publish extends Comparing {
        @Option(names = "--yes", description = "publish without asking")
        boolean yes;
        @Option(names = "--deployment-strategy", paramLabel = "ID", defaultValue = AppConfigStore.ALL_AT_ONCE,
                description = "the AppConfig deployment strategy, for an appconfig: location (default ${DEFAULT-VALUE}:"
                        + " every function instance gets the new document at its next read, within a minute; AppConfig then"
                        + " watches the environment's alarms, if it has any, for 10 minutes and rolls back on one. A gradual"
                        + " strategy, e.g. AppConfig.Linear20PercentEvery6Minutes, runs the old and the new configuration side"
                        + " by side for its whole duration, 30 minutes there)")
        String deploymentStrategy;

        @Override
        String deploymentStrategy() {
            return deploymentStrategy;
        }

        @Override
        void unreadable(ConfigStore store, Console console) {
            console.out().println(store.refusal() != null ? "nothing published: " + store.refusal() : "publish would " + store.plan()
                    + " once it has compared " + file + " with what is published there, which it could not read (below): nothing"
                    + " published");
        }

        @Override
        int then(PendingChange change, ConfigStore store, Console console) throws IOException {
            if (change.identical()) {
                console.out().println("nothing published");
                return FaninCli.OK;
            }
            if (store.refusal() != null) {
                console.out().println("nothing published: " + store.refusal());
                return FaninCli.INVALID_INPUT;
            }
            if (!yes && !Confirm.ask(console, "publish " + file + " to " + change.location() + "?")) {
                console.err().println("not confirmed: nothing published (give --yes to publish without asking)");
                return FaninCli.USAGE;
            }
            console.out().println("published: " + store.publish(change.nextText(), change.published().isEmpty()));
            return FaninCli.OK;
        }
    }
}
