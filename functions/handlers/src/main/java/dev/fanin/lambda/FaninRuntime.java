package dev.fanin.lambda;

import dev.fanin.aws.RoutingEmitter;
import dev.fanin.aws.dynamodb.DynamoDbPipelineHistory;
import dev.fanin.aws.dynamodb.DynamoDbWatermarkStore;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.eventbridge.EventBridgeEmitter;
import dev.fanin.aws.sqs.SqsDeadLetters;
import dev.fanin.aws.sqs.SqsEmitter;
import dev.fanin.aws.sqs.SqsSideOutput;
import dev.fanin.aws.sqs.SqsWindowTimers;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.port.PipelineHistory;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.SweepService;
import dev.fanin.core.service.TimerService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.crac.Core;
import org.crac.Resource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a function needs, built once per container (cold start, or before the SnapStart snapshot): the
 * settings from the environment, the SDK clients, the adapters, the metrics and the live pipeline configuration
 * ({@link LiveConfig}); and, for the configuration in force, the engine with the system clock (or a given one, for
 * tests and local runs) and the services. Each invocation starts with {@link #refresh()}, which reads the
 * configuration again when it is due and rebuilds the engine when a new valid one came in; the invocation then runs
 * on that engine throughout. A container without a valid configuration starts all the same (SnapStart takes its
 * snapshot at deploy time, possibly before the first configuration is published) and fails its invocations with the
 * reason until one is.
 *
 * <p>As a CRaC {@link Resource} it primes the SDK before a SnapStart snapshot is taken, so the first invocation
 * after a restore does not pay for class loading and the first request's marshalling, signing and connection.
 * Outside SnapStart the registration is inert.
 */
public final class FaninRuntime implements Resource {

    private static final Logger LOG = LoggerFactory.getLogger(FaninRuntime.class);

    private final FunctionSettings settings;
    private final Map<String, String> env;
    private final Clock clock;
    private final SdkClients clients;
    private final PowertoolsMetrics metrics;
    private final WriteCostMeter writeCosts;
    private final LiveConfig configs;
    private final DynamoDbWindowStore store;
    private final DynamoDbWatermarkStore watermarks;
    private final PipelineRetirement retirement;
    private final Duration refresh;
    /** The threads the sweeper works on shards with, built once per process; null when it sweeps one at a time. */
    private final ExecutorService sweepThreads;
    /** Whether this runtime records its pipelines in the history (the functions'), or only reads it (an operator's). */
    private final boolean recordsHistory;
    private Instant nextHistoryRead = Instant.MIN;
    /** Whether the pipelines in force are recorded in the pipeline history (no window of one is opened before). */
    private volatile boolean recorded;
    private volatile Engine engine;

    /** The engine and services of one configuration. */
    private record Engine(FaninConfig config, PipelineRetirement.Retired retired, FaninEngine engine, IngestService ingest, SweepService sweep,
                          TimerService timers) { }

    private FaninRuntime(FunctionSettings settings, Map<String, String> env, Clock clock, SdkClients clients, Duration refresh,
                         boolean recordsHistory) {
        this.settings = settings;
        this.recordsHistory = recordsHistory;
        this.env = Map.copyOf(env);
        this.clock = clock;
        this.clients = clients;
        this.metrics = new PowertoolsMetrics();
        this.writeCosts = new WriteCostMeter();
        ConfigLocation location = settings.config();
        DynamoDbPipelineHistory history = new DynamoDbPipelineHistory(clients.dynamoDb(), settings.tableName());
        // The functions fall back on what they last ran; an operator's command says the document is invalid and asks
        // for one (--config), rather than show windows by a configuration the operator did not name.
        this.configs = new LiveConfig(location, clients.configDocument(location), metrics, refresh, this::emitter,
                recordsHistory ? () -> lastRun(history) : Optional::empty);
        this.store = new DynamoDbWindowStore(clients.dynamoDb(), settings.tableName(), new DynamoDbWindowStore.Settings(
                settings.dueShards(), DynamoDbWindowStore.Settings.defaults().spillThreshold()), writeCosts);
        this.watermarks = new DynamoDbWatermarkStore(clients.dynamoDb(), settings.tableName(), DynamoDbWatermarkStore.Settings.defaults(),
                this::watermarkKeptFor);
        this.retirement = new PipelineRetirement(history, FaninSettings.defaults().lease(), refresh);
        this.refresh = refresh;
        this.sweepThreads = settings.sweepParallelism() > 1 ? sweepThreads(settings.sweepParallelism()) : null;
    }

    /**
     * The document the functions last ran: the pipeline history's definition last said to run (every pipeline in force
     * is recorded again with the document whenever it changes); empty when there is none or it cannot be read now.
     */
    private static Optional<String> lastRun(PipelineHistory history) {
        try {
            return history.recorded().stream()
                    .max(Comparator.comparing(PipelineHistory.Definition::ranAt).thenComparing(PipelineHistory.Definition::sweepUntil))
                    .map(PipelineHistory.Definition::document);
        } catch (RuntimeException e) {
            // Unreadable now (throttled, no table yet): the instance goes on failing with the location's reason.
            LOG.warn("pipeline history not readable for the configuration the functions last ran: {}", e.toString());
            return Optional.empty();
        }
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
     * against the same map. The configuration is read now; an invalid or missing one does not fail the start (see
     * the class comment).
     *
     * @throws IllegalStateException naming every missing or malformed variable
     */
    public static FaninRuntime create(Map<String, String> env, Clock clock) {
        return create(env, clock, LiveConfig.REFRESH);
    }

    /** As {@link #create(Map, Clock)}, reading an external configuration again every {@code refresh}. */
    public static FaninRuntime create(Map<String, String> env, Clock clock, Duration refresh) {
        return create(env, clock, refresh, true);
    }

    /**
     * As {@link #create(Map, Clock)} for an operator's command on a running stack: it reads the pipeline history (to
     * know the retired pipelines) but records nothing in it, so a command run with another configuration (a draft,
     * {@code --config}) never makes the stack's functions take that configuration's pipelines for their own. It opens
     * no window (ingest refuses to run on it).
     */
    public static FaninRuntime forOperator(Map<String, String> env, Clock clock) {
        return create(env, clock, LiveConfig.REFRESH, false);
    }

    private static FaninRuntime create(Map<String, String> env, Clock clock, Duration refresh, boolean recordsHistory) {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(clock, "clock");
        FunctionSettings settings = FunctionSettings.from(env);
        SdkClients clients = SdkClients.build(settings);
        try {
            FaninRuntime runtime = new FaninRuntime(settings, env, clock, clients, refresh, recordsHistory);
            try {
                runtime.refresh();
                LOG.info("fanin runtime ready: {} pipelines, table {}", runtime.engine.config().pipelines().size(), settings.tableName());
            } catch (NoValidConfigurationException e) {
                LOG.error("fanin runtime started without a pipeline configuration; invocations fail until one is valid: {}",
                        e.getMessage());
            } catch (dev.fanin.core.port.StoreUnavailableException e) {
                LOG.warn("fanin runtime started; the pipeline history is not readable yet, the first invocation tries again: {}",
                        e.getMessage());
            }
            return runtime;
        } catch (RuntimeException e) {
            clients.close();
            throw e;
        }
    }

    /**
     * Brings the configuration up to date (reading it again when due) and makes the engine follow it, with the
     * pipelines retired from it ({@link PipelineRetirement}, read again as often as the configuration): what an
     * invocation runs on.
     *
     * @throws NoValidConfigurationException when no valid configuration has been read yet
     * @throws dev.fanin.core.port.StoreUnavailableException when the pipelines in force cannot be recorded yet
     */
    synchronized FaninEngine refresh() {
        Instant now = clock.instant();
        FaninConfig config = configs.current(now);
        Engine current = engine;
        boolean newConfig = current == null || current.config() != config;
        PipelineRetirement.Retired retired = current == null ? PipelineRetirement.Retired.NONE : current.retired();
        if (newConfig) {
            recorded = false;
        }
        if (newConfig || !now.isBefore(nextHistoryRead)) {
            try {
                retired = recordsHistory ? retirement.update(config, configs.document(), now) : retirement.retired(config, now);
                recorded = recordsHistory;
                nextHistoryRead = now.plus(refresh);
                if (!retired.pipelines().isEmpty() && (current == null || !retired.equals(current.retired()))) {
                    LOG.info("pipelines retired from the configuration, swept until their windows close: {} (still run by other"
                            + " functions, a deployment in progress: {})", retired.pipelines().stream().map(PipelineConfig::name).toList(),
                            retired.runElsewhere());
                }
            } catch (RuntimeException e) {
                // Read again at the next invocation; ingest refuses to open windows until it is recorded.
                LOG.warn("pipeline history not read or recorded now, the next invocation tries again: {}", e.toString());
            }
        }
        if (newConfig || !retired.equals(current.retired())) {
            current = build(config, retired);
            engine = current;
        }
        return current.engine();
    }

    /**
     * How long after its latest arrival a pipeline's watermark shards must be kept: as long as a window opened then may
     * still wait for the watermark or take a correction, which is how long it may need a sweep
     * ({@link PipelineRetirement#horizon}), for a configured or retired pipeline; and, since a window opened under an
     * earlier definition with a longer horizon (a maxLifetime lowered since) still waits for the same watermark, no
     * shorter than the pipeline history sweeps the pipeline. Nothing more for one this engine does not know.
     */
    private Duration watermarkKeptFor(String pipeline) {
        Engine current = engine;
        if (current == null || !current.engine().knows(pipeline)) {
            return Duration.ZERO;
        }
        Duration byDefinition = retirement.horizon(current.engine().machine(pipeline).config());
        Duration byHistory = retirement.sweptUntil(pipeline).map(until -> Duration.between(clock.instant(), until)).orElse(Duration.ZERO);
        return byHistory.compareTo(byDefinition) > 0 ? byHistory : byDefinition;
    }

    /**
     * Fails unless every pipeline in force is recorded in the pipeline history: ingest, the only writer that opens
     * windows, asks first, so that a pipeline removed later still has its windows closed.
     *
     * @throws IllegalStateException naming why it is not
     */
    void requirePipelinesRecorded() {
        if (!recordsHistory) {
            throw new IllegalStateException("this runtime only reads the pipeline history (an operator's command); it opens no window");
        }
        if (!recordedLongEnough()) {
            synchronized (this) {
                nextHistoryRead = Instant.MIN;
                refresh();
                if (!recordedLongEnough()) {
                    throw new IllegalStateException("the pipelines in force are not recorded in the pipeline history, or not"
                            + " for long enough, yet (the window table is unavailable); no window is opened until they are");
                }
            }
        }
    }

    /** Recorded, and, as far as this function knows, still swept long enough: renewals that keep failing lapse. */
    private boolean recordedLongEnough() {
        Engine current = engine;
        return recorded && current != null && retirement.sweepsLongEnough(current.config(), clock.instant());
    }

    private Engine build(FaninConfig config, PipelineRetirement.Retired retired) {
        // The retired pipelines' windows still emit, to the targets of their last definition.
        List<PipelineConfig> emitting = new java.util.ArrayList<>(config.pipelines());
        emittable(config, retired.pipelines().stream().filter(p -> config.pipeline(p.name()).isEmpty()).toList()).forEach(emitting::add);
        FaninPorts ports = new FaninPorts(store, watermarks, emitter(new FaninConfig(config.version(), emitting)),
                new SqsWindowTimers(clients.sqs(), settings.timerQueueUrl()),
                new SqsSideOutput(clients.sqs(), settings.sideOutputQueueUrl()),
                new SqsDeadLetters(clients.sqs(), settings.deadLetterQueueUrl()),
                metrics);
        FaninSettings faninSettings = FaninSettings.defaults().withMaxReceiveCount(settings.maxReceiveCount())
                .withIngestTimeout(Duration.ofSeconds(settings.ingestTimeoutSeconds()))
                .withSweepParallelism(settings.sweepParallelism());
        FaninEngine core = new FaninEngine(config, retired.pipelines(), retired.runElsewhere(), ports, faninSettings, clock);
        return new Engine(config, retired, core, new IngestService(core), new SweepService(core, sweepThreads), new TimerService(core));
    }

    /**
     * The retired pipelines whose emit targets can be built here. One whose recorded target no longer resolves (its
     * variable went with it) gets none, said at ERROR: its windows are still swept and claimed, and each emission fails
     * (EmitFailures, then WindowsNotClosing past its deadline) until the variable is back, while the pipelines in force
     * run (building it would fail every invocation).
     */
    private List<PipelineConfig> emittable(FaninConfig config, List<PipelineConfig> retired) {
        List<PipelineConfig> kept = new java.util.ArrayList<>();
        for (PipelineConfig p : retired) {
            try {
                emitter(new FaninConfig(config.version(), List.of(p)));
                kept.add(p);
            } catch (IllegalStateException e) {
                LOG.error("pipeline {} was removed from the configuration but its recorded emit target cannot be built here; its open"
                        + " windows cannot emit until it can: {}", p.name(), e.getMessage());
            }
        }
        return kept;
    }

    /**
     * The emitters of {@code targets}' pipelines, their {@code ${...}} references resolved against this function's
     * environment; also {@link LiveConfig}'s check that a new configuration can run here.
     *
     * @throws IllegalStateException naming a reference to a variable that is not set, or a resolved value that is invalid
     */
    private RoutingEmitter emitter(FaninConfig targets) {
        return new RoutingEmitter(targets, new EventBridgeEmitter(clients.eventBridge(), targets, env::get),
                new SqsEmitter(clients.sqs(), targets, env::get));
    }

    /** Daemon threads: a shard still running when the process ends never keeps it alive. */
    private static ExecutorService sweepThreads(int threads) {
        AtomicInteger number = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "fanin-sweep-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The engine in force, loading the configuration if none is yet. */
    private Engine inForce() {
        Engine current = engine;
        if (current == null) {
            refresh();
            current = engine;
        }
        return current;
    }

    public FunctionSettings settings() {
        return settings;
    }

    public FaninEngine engine() {
        return inForce().engine();
    }

    public IngestService ingest() {
        return inForce().ingest();
    }

    public SweepService sweep() {
        return inForce().sweep();
    }

    public TimerService timers() {
        return inForce().timers();
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
            FaninEngine core = engine();
            core.intake().parse(new InboundMessage("fanin-priming", "{\"priming\":true}", null, core.clock().instant()));
            core.config().pipelines().stream().findFirst().ifPresent(p -> core.ports().watermarks().read(p.name()));
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
