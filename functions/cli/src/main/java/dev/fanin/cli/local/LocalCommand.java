package dev.fanin.cli.local;

import dev.fanin.cli.Command;
import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.Flag;
import dev.fanin.cli.Flags;
import dev.fanin.cli.UsageException;
import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.Durations;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.NoLocalAwsEndpointException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code fanin local}: the whole pipeline on this machine. Exit codes: 0 everything expected happened; 1 something
 * expected did not happen (no aggregate, a window overdue, the sample's dead letter missing), or the input (events
 * file, configuration) is wrong; 2 the command line is wrong.
 */
public final class LocalCommand implements Command {

    /** Provides the endpoint of a run; {@link #owned()} says whether the run stops it at the end. */
    public interface EndpointSource {
        LocalAwsEndpoint open();

        boolean owned();
    }

    static final Flag EVENTS = Flag.valued("events", "FILE",
            "play your own messages instead of the sample traffic: JSON Lines {\"at\": ISO time or offset like \"2s\", \"body\": JSON or string}");
    static final Flag CONFIG = Flag.valued("config", "FILE", "the pipelines YAML file (default: the bundled one the sample traffic is for)");
    static final Flag SWEEP_EVERY = Flag.valued("sweep-every", "DURATION", "how often the sweeper runs here (default 10s; in AWS the template's SweepSchedule)");
    static final Flag MAX_WAIT = Flag.valued("max-wait", "DURATION", "stop at the latest after this long (default 3m), e.g. 90s");

    private final EndpointSource endpoints;

    /** The launcher's command: AWS_ENDPOINT_URL, else LocalStack with Docker, else a moto_server it starts and stops. */
    public LocalCommand() {
        this(new EndpointSource() {
            @Override
            public LocalAwsEndpoint open() {
                return LocalAwsEndpoint.start(System.getenv());
            }

            @Override
            public boolean owned() {
                return true;
            }
        });
    }

    public LocalCommand(EndpointSource endpoints) {
        this.endpoints = endpoints;
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public String summary() {
        return "run the whole pipeline on this machine against local AWS endpoints, with sample traffic and a live view";
    }

    @Override
    public List<Flag> flags() {
        return List.of(EVENTS, CONFIG, SWEEP_EVERY, MAX_WAIT);
    }

    @Override
    public String details() {
        return """
                The endpoint: AWS_ENDPOINT_URL if set, else LocalStack when Docker runs, else moto_server (started and
                stopped here). The table, queues and bus are created from template.yaml under a fresh prefix; the
                ingest and timer functions are fed by SQS pollers with the template's batch settings, the sweeper runs
                every --sweep-every. The run ends when every window has closed (windows waiting longer than --max-wait,
                such as a held upload batch, are listed with the time they will fire), or at --max-wait.

                exit codes: 0 everything expected happened; 1 something expected did not (or the input is wrong);
                2 the command line is wrong
                """;
    }

    @Override
    public int run(List<String> args, Console console) throws UsageException {
        Flags flags = Flags.parse(name(), args, flags());
        Duration sweepEvery = duration(flags, SWEEP_EVERY, Duration.ofSeconds(10));
        Duration maxWait = duration(flags, MAX_WAIT, Duration.ofMinutes(3));
        Optional<Path> events = file(flags, EVENTS);
        Optional<Path> config = file(flags, CONFIG);
        String runId = Long.toString(Clock.systemUTC().millis() % 2_176_782_336L, 36);
        RepositoryFiles repository;
        Traffic traffic;
        try {
            repository = RepositoryFiles.locate();
            traffic = events.isPresent()
                    ? UserTraffic.parse(Files.readAllLines(events.get()), events.get().toString())
                    : SampleTraffic.build(repository.events(), Clock.systemUTC().instant().plusSeconds(1), runId);
        } catch (IOException | IllegalArgumentException | IllegalStateException e) {
            console.err().println("fanin local: " + e.getMessage());
            return FaninCli.INVALID_INPUT;
        }
        LocalOptions options = new LocalOptions(repository, events, config, sweepEvery, maxWait, LocalRun.defaultLogFile(runId));
        FunctionLogs.redirectTo(options.functionLog());
        LocalAwsEndpoint endpoint;
        try {
            endpoint = endpoints.open();
        } catch (NoLocalAwsEndpointException e) {
            console.err().println("fanin local: " + e.getMessage());
            return FaninCli.INVALID_INPUT;
        }
        try {
            boolean terminal = System.console() != null && console.out() == System.out;
            LocalRun.Outcome outcome = new LocalRun(options, endpoint, console.out(), terminal).run(traffic, runId);
            return outcome.succeeded() ? FaninCli.OK : FaninCli.INVALID_INPUT;
        } catch (ConfigException e) {
            console.err().println("fanin local: the configuration is invalid:");
            e.problems().forEach(p -> console.err().println(p));
            return FaninCli.INVALID_INPUT;
        } finally {
            if (endpoints.owned()) {
                endpoint.close();
            }
        }
    }

    private static Optional<Path> file(Flags flags, Flag flag) throws UsageException {
        Optional<String> value = flags.value(flag.name());
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Path path = Path.of(value.get());
        if (!Files.isRegularFile(path)) {
            throw new UsageException("fanin local: --" + flag.name() + " " + value.get() + ": no such file");
        }
        return Optional.of(path);
    }

    private static Duration duration(Flags flags, Flag flag, Duration fallback) throws UsageException {
        Optional<String> value = flags.value(flag.name());
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            Duration d = Durations.parse(value.get());
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("must be positive");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new UsageException("fanin local: --" + flag.name() + " \"" + value.get() + "\" is not a positive duration such as 10s, 90s or 3m");
        }
    }
}
