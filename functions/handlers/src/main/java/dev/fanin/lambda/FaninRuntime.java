package dev.fanin.lambda;

import dev.fanin.aws.RoutingEmitter;
import dev.fanin.aws.dynamodb.DynamoDbWatermarkStore;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.eventbridge.EventBridgeEmitter;
import dev.fanin.aws.sqs.SqsDeadLetters;
import dev.fanin.aws.sqs.SqsEmitter;
import dev.fanin.aws.sqs.SqsSideOutput;
import dev.fanin.aws.sqs.SqsWindowTimers;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.SweepService;
import dev.fanin.core.service.TimerService;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import org.crac.Core;
import org.crac.Resource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a function needs, built once per container (cold start, or before the SnapStart snapshot): the
 * settings from the environment, the pipeline configuration, the SDK clients, the adapters, the engine with the
 * system clock (or a given one, for tests and local runs), the services and the metrics.
 *
 * <p>As a CRaC {@link Resource} it primes the SDK before a SnapStart snapshot is taken, so the first invocation
 * after a restore does not pay for class loading and the first request's marshalling, signing and connection.
 * Outside SnapStart the registration is inert.
 */
public final class FaninRuntime implements Resource {

    private static final Logger LOG = LoggerFactory.getLogger(FaninRuntime.class);

    private final FunctionSettings settings;
    private final SdkClients clients;
    private final FaninEngine engine;
    private final PowertoolsMetrics metrics;
    private final WriteCostMeter writeCosts;
    private final IngestService ingest;
    private final SweepService sweep;
    private final TimerService timers;

    private FaninRuntime(FunctionSettings settings, SdkClients clients, FaninEngine engine, PowertoolsMetrics metrics,
                         WriteCostMeter writeCosts) {
        this.settings = settings;
        this.clients = clients;
        this.engine = engine;
        this.metrics = metrics;
        this.writeCosts = writeCosts;
        this.ingest = new IngestService(engine);
        this.sweep = new SweepService(engine);
        this.timers = new TimerService(engine);
    }

    /** The Lambda cold start: the process environment and the system clock. */
    public static FaninRuntime fromEnvironment() {
        FaninRuntime runtime = create(System.getenv(), Clock.systemUTC());
        Core.getGlobalContext().register(runtime);
        return runtime;
    }

    /**
     * A runtime from an environment map (the names of {@link EnvironmentVariables}) and a clock, without touching
     * the process environment: tests and {@code fanin local} point it at a local endpoint with
     * {@code AWS_ENDPOINT_URL}. {@code ${NAME}} references in the configuration's emit targets are resolved
     * against the same map.
     *
     * @throws IllegalStateException naming every missing or malformed variable, or an unresolvable reference
     * @throws dev.fanin.core.config.ConfigException listing every problem of the pipeline configuration
     */
    public static FaninRuntime create(Map<String, String> env, Clock clock) {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(clock, "clock");
        FunctionSettings settings = FunctionSettings.from(env);
        FaninConfig config = ConfigSource.load(settings.configLocation());
        SdkClients clients = SdkClients.build(settings);
        try {
            WriteCostMeter writeCosts = new WriteCostMeter();
            PowertoolsMetrics metrics = new PowertoolsMetrics();
            DynamoDbWindowStore.Settings storeSettings = new DynamoDbWindowStore.Settings(settings.dueShards(),
                    DynamoDbWindowStore.Settings.defaults().spillThreshold());
            FaninPorts ports = new FaninPorts(
                    new DynamoDbWindowStore(clients.dynamoDb(), settings.tableName(), storeSettings, writeCosts),
                    new DynamoDbWatermarkStore(clients.dynamoDb(), settings.tableName(), DynamoDbWatermarkStore.Settings.defaults()),
                    new RoutingEmitter(config,
                            new EventBridgeEmitter(clients.eventBridge(), config, env::get),
                            new SqsEmitter(clients.sqs(), config, env::get)),
                    new SqsWindowTimers(clients.sqs(), settings.timerQueueUrl()),
                    new SqsSideOutput(clients.sqs(), settings.sideOutputQueueUrl()),
                    new SqsDeadLetters(clients.sqs(), settings.deadLetterQueueUrl()),
                    metrics);
            FaninSettings faninSettings = FaninSettings.defaults().withMaxReceiveCount(settings.maxReceiveCount())
                    .withIngestTimeout(java.time.Duration.ofSeconds(settings.ingestTimeoutSeconds()))
                    .withSweepParallelism(settings.sweepParallelism());
            FaninEngine engine = new FaninEngine(config, ports, faninSettings, clock);
            LOG.info("fanin runtime ready: {} pipelines, table {}", config.pipelines().size(), settings.tableName());
            return new FaninRuntime(settings, clients, engine, metrics, writeCosts);
        } catch (RuntimeException e) {
            clients.close();
            throw e;
        }
    }

    public FunctionSettings settings() {
        return settings;
    }

    public FaninEngine engine() {
        return engine;
    }

    public IngestService ingest() {
        return ingest;
    }

    public SweepService sweep() {
        return sweep;
    }

    public TimerService timers() {
        return timers;
    }

    public PowertoolsMetrics metrics() {
        return metrics;
    }

    WriteCostMeter writeCosts() {
        return writeCosts;
    }

    /**
     * Exercises what the first invocation would otherwise load: intake's JSON parsing and every pipeline's rules
     * (pure), and one real DynamoDB round trip (the watermark read of the first pipeline, a Query every function's
     * role allows) through the shared HTTP client, signer and JSON protocol. Failures are logged, never thrown:
     * priming is an optimisation.
     */
    void prime() {
        try {
            engine.intake().parse(new InboundMessage("fanin-priming", "{\"priming\":true}", Map.of(), engine.clock().instant()));
            engine.config().pipelines().stream().findFirst()
                    .ifPresent(p -> engine.ports().watermarks().read(p.name()));
            LOG.info("primed the SDK clients and intake");
        } catch (RuntimeException e) {
            LOG.warn("priming incomplete (harmless, the first invocation pays instead): {}", e.toString());
        }
    }

    @Override
    public void beforeCheckpoint(org.crac.Context<? extends Resource> context) {
        prime();
    }

    @Override
    public void afterRestore(org.crac.Context<? extends Resource> context) {
        LOG.info("restored from a SnapStart snapshot");
    }
}
