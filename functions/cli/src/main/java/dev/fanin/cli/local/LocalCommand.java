package dev.fanin.cli.local;

import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.FaninCommand;
import dev.fanin.cli.UsageException;
import dev.fanin.core.config.ConfigException;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.NoLocalAwsEndpointException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fanin local}: the whole pipeline on this machine. Exit codes: 0 everything expected happened; 1 something
 * expected did not happen (no aggregate, a window overdue, the sample's dead letter missing), or the input (events
 * file, configuration) is wrong; 2 the command line is wrong.
 */
@Command(name = "local",
        description = "run the whole pipeline on this machine against local AWS endpoints, with sample traffic and a live view",
        footer = {"",
                "The endpoint: AWS_ENDPOINT_URL if set, else LocalStack when Docker runs, else moto_server (started and",
                "stopped here). The table, queues and bus are created from template.yaml under a fresh prefix; the",
                "ingest and timer functions are fed by SQS pollers with the template's batch settings, the sweeper runs",
                "every --sweep-every. The run ends when every window has closed (windows waiting longer than --max-wait,",
                "such as a held upload batch, are listed with the time they will fire), or at --max-wait.",
                "",
                "Exit codes: 0 everything expected happened; 1 something expected did not (or the input is wrong);",
                "2 the command line is wrong."})
public final class LocalCommand extends FaninCommand {

    /** Provides the endpoint of a run; {@link #owned()} says whether the run stops it at the end. */
    public interface EndpointSource {
        LocalAwsEndpoint open();

        boolean owned();
    }

    @Option(names = "--events", paramLabel = "FILE", description = "play your own messages instead of the sample traffic: a trace as fanin replay reads it, "
            + "JSON Lines {\"at\": ISO time or offset like \"+2s\", \"body\": JSON (sent as the file writes it) or string}")
    private Path events;
    @Option(names = "--config", paramLabel = "FILE", description = "the pipelines YAML file (default: the bundled one the sample traffic is for)")
    private Path config;
    @Option(names = "--sweep-every", paramLabel = "DURATION",
            description = "how often the sweeper runs here (default 10s; in AWS the template's SweepSchedule)")
    private Duration sweepEvery = Duration.ofSeconds(10);
    @Option(names = "--max-wait", paramLabel = "DURATION", description = "stop at the latest after this long (default 3m), e.g. 90s")
    private Duration maxWait = Duration.ofMinutes(3);

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
    protected int run(Console console) throws UsageException {
        positive("--sweep-every", sweepEvery);
        positive("--max-wait", maxWait);
        Optional<Path> eventsFile = file("--events", events);
        Optional<Path> configFile = file("--config", config);
        String runId = Long.toString(Clock.systemUTC().millis() % 2_176_782_336L, 36);
        RepositoryFiles repository;
        Traffic traffic;
        try {
            repository = RepositoryFiles.locate();
            traffic = eventsFile.isPresent()
                    ? UserTraffic.read(eventsFile.get(), note -> console.err().println("fanin local: " + note))
                    : SampleTraffic.build(repository.events(), Clock.systemUTC().instant().plusSeconds(1), runId);
        } catch (UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
            console.err().println("fanin local: " + e.getMessage());
            return FaninCli.INVALID_INPUT;
        }
        LocalOptions options = new LocalOptions(repository, eventsFile, configFile, sweepEvery, maxWait, LocalRun.defaultLogFile(runId));
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

    private static Optional<Path> file(String flag, Path path) throws UsageException {
        if (path != null && !Files.isRegularFile(path)) {
            throw new UsageException("fanin local: " + flag + " " + path + ": no such file");
        }
        return Optional.ofNullable(path);
    }

    private static void positive(String flag, Duration duration) throws UsageException {
        if (duration.isNegative() || duration.isZero()) {
            throw new UsageException("fanin local: " + flag + " must be a positive duration such as 10s, 90s or 3m");
        }
    }
}
