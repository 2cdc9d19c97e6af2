package dev.fanin.core.service;

import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.Retirement;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.config.WatermarkSpec;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.watermark.Backlog;
import dev.fanin.core.watermark.QueueEvidence;
import dev.fanin.core.watermark.Watermark;
import dev.fanin.core.watermark.Watermarks;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The configured core of one process: the pipelines, their state machines, intake, the ports and the clock. Built
 * once per configuration in force; shared by the ingest, sweep, timer and flush services.
 *
 * <p>Besides the configuration's pipelines, the engine knows the <em>retired</em> ones: pipelines a configuration no
 * longer has (removed, or renamed) whose windows may still be open. They get no new events (intake knows only the
 * configuration), but their windows are still swept, their timers still handled and their closes decided under their
 * last definition, so that every window closes across a configuration change; their aggregates carry the
 * {@link Retirement} (removed, or renamed to which configured pipeline), unless another function still runs the
 * pipeline: during a deployment, a function on the configuration before a pipeline was added sees it as retired,
 * and one on the configuration after it was removed does too while the functions of before still run it.
 */
public final class FaninEngine {

    private final FaninConfig config;
    private final FaninPorts ports;
    private final FaninSettings settings;
    private final Clock clock;
    private final MessageIntake intake;
    private final Map<String, WindowMachine> machines = new LinkedHashMap<>();
    private final List<PipelineConfig> retired;
    private final Set<String> runElsewhere;
    private final LongSupplier sequence;

    public FaninEngine(FaninConfig config, FaninPorts ports, FaninSettings settings, Clock clock) {
        this(config, List.of(), ports, settings, clock);
    }

    /** An engine whose reads and commits are ordered by a counter of its own ({@link #nextSequence()}). */
    public FaninEngine(FaninConfig config, List<PipelineConfig> retired, FaninPorts ports, FaninSettings settings, Clock clock) {
        this(config, retired, ports, settings, clock, new AtomicLong()::incrementAndGet);
    }

    /** An engine whose reads and commits are ordered by a counter of its own, {@code runElsewhere} as below. */
    public FaninEngine(FaninConfig config, List<PipelineConfig> retired, Set<String> runElsewhere, FaninPorts ports, FaninSettings settings,
                       Clock clock) {
        this(config, retired, runElsewhere, ports, settings, clock, new AtomicLong()::incrementAndGet);
    }

    /** An engine whose retired pipelines all carry their {@link Retirement}. */
    public FaninEngine(FaninConfig config, List<PipelineConfig> retired, FaninPorts ports, FaninSettings settings, Clock clock,
                       LongSupplier sequence) {
        this(config, retired, Set.of(), ports, settings, clock, sequence);
    }

    /**
     * @param retired      pipelines no longer in {@code config} whose windows may still be open (a name in both is ignored)
     * @param runElsewhere the names among {@code retired} that another function still runs: decided under their
     *                     definition, without a {@link Retirement}
     * @param sequence     the source of {@link #nextSequence()}: increasing, and safe to call from several threads
     */
    public FaninEngine(FaninConfig config, List<PipelineConfig> retired, Set<String> runElsewhere, FaninPorts ports, FaninSettings settings,
                       Clock clock, LongSupplier sequence) {
        this.runElsewhere = Set.copyOf(runElsewhere);
        this.sequence = Objects.requireNonNull(sequence, "sequence");
        this.config = Objects.requireNonNull(config, "config");
        this.ports = Objects.requireNonNull(ports, "ports");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.intake = new MessageIntake(config);
        for (PipelineConfig p : config.pipelines()) {
            machines.put(p.name(), new WindowMachine(p, settings.lease()));
        }
        List<PipelineConfig> stillOpen = new ArrayList<>();
        for (PipelineConfig p : retired) {
            WindowMachine machine = new WindowMachine(p, settings.lease());
            if (machines.putIfAbsent(p.name(), runElsewhere.contains(p.name()) ? machine : machine.retired(Retirement.of(p, config))) == null) {
                stillOpen.add(p);
            }
        }
        this.retired = List.copyOf(stillOpen);
    }

    /** Pipelines no longer configured whose windows may still be open, swept under their last definition. */
    public List<PipelineConfig> retired() {
        return retired;
    }

    /** The retired pipelines another function still runs (their aggregates carry no {@link Retirement}). */
    public Set<String> runElsewhere() {
        return runElsewhere;
    }

    /** Every pipeline whose windows the sweeper visits: the configuration's, then the retired ones. */
    public List<PipelineConfig> sweptPipelines() {
        List<PipelineConfig> all = new ArrayList<>(config.pipelines());
        all.addAll(retired);
        return all;
    }

    /** Whether windows of {@code pipeline} can be decided here (configured or retired). */
    public boolean knows(String pipeline) {
        return machines.containsKey(pipeline);
    }

    public FaninConfig config() {
        return config;
    }

    public FaninPorts ports() {
        return ports;
    }

    public FaninSettings settings() {
        return settings;
    }

    public Clock clock() {
        return clock;
    }

    /**
     * The next number in one order of what sweeps read and what commits write (program order within one thread). A
     * sweep run replaces a listing it planned from a read only by a commit numbered after that read, so every read and
     * commit a run compares must draw from this one engine.
     */
    public long nextSequence() {
        return sequence.getAsLong();
    }

    public MessageIntake intake() {
        return intake;
    }

    public WindowMachine machine(String pipeline) {
        WindowMachine m = machines.get(pipeline);
        if (m == null) {
            throw new IllegalArgumentException("no pipeline named \"" + pipeline + "\" in the configuration nor retired");
        }
        return m;
    }

    public WindowState decode(StoredWindow stored) {
        return WindowCodec.decode(stored, machine(stored.ref().pipeline()).config());
    }

    /**
     * The pipeline's watermark at {@code now}, from the stored shards raised by what this caller has seen
     * ({@code seenMaxEventTime}, or {@link Long#MIN_VALUE} for nothing; a caller that saw events also arrived now).
     */
    public long watermark(String pipeline, long seenMaxEventTime, Instant now) {
        return watermark(pipeline, seenMaxEventTime, QueueEvidence.NONE, now).millis();
    }

    /** The pipeline's watermark at {@code now} as the stored shards give it, with when a backlog's cap may lift. */
    public Watermark watermarkAt(String pipeline, Instant now) {
        return watermark(pipeline, Long.MIN_VALUE, QueueEvidence.NONE, now).watermark();
    }

    /** The pipeline's machine scheduling open windows by {@code watermark} ({@link WindowMachine#scheduledBy}). */
    public WindowMachine machine(String pipeline, Watermark watermark) {
        return machine(pipeline).scheduledBy(watermark);
    }

    /**
     * The watermark an ingest batch acts on: the stored shards raised by the batch's newest event time, capped by the
     * backlog evidence in force joined to the batch's own ({@link Backlog}).
     *
     * @param backlogToStore the stored evidence joined to the batch's first deliveries, when they were behind: what
     *                       the batch records so that the sweeper and the timers hold the watermark too
     * @param stored         the stored inputs it was computed from, which decide whether the batch stores its own
     *                       ({@link dev.fanin.core.watermark.StoredAdvance})
     */
    public record BatchWatermark(Watermark watermark, Watermark shared, Optional<Backlog> backlogToStore, WatermarkStore.Reading stored) {

        public long millis() {
            return watermark.millis();
        }
    }

    public BatchWatermark watermark(String pipeline, long seenMaxEventTime, QueueEvidence seen, Instant now) {
        WatermarkStore.Reading r = ports.watermarks().read(pipeline);
        long maxEt = Math.max(r.maxEventTime().toEpochMilli(), seenMaxEventTime);
        long lastArrival = seenMaxEventTime == Long.MIN_VALUE ? r.lastArrival().toEpochMilli() : now.toEpochMilli();
        WatermarkSpec spec = machine(pipeline).config().watermark();
        Optional<Backlog> stored = Backlog.inForce(r.backlogs(), now.toEpochMilli(), spec.idleAfter());
        // Evidence after an outage reaches back to the pipeline's last arrival (Backlog.reachingBack).
        Optional<Backlog> toStore = seen.firstDeliveries().map(b -> b.reachingBack(r.lastArrival().toEpochMilli(), spec.idleAfter()))
                .map(first -> stored.map(s -> Backlog.joined(s, first, spec.idleAfter())).orElse(first));
        if (maxEt == Instant.EPOCH.toEpochMilli() && r.lastArrival().equals(Instant.EPOCH) && seenMaxEventTime == Long.MIN_VALUE) {
            // Nothing ever seen: no window exists whose close could depend on the watermark.
            return new BatchWatermark(Watermark.free(Watermarks.NO_WATERMARK), Watermark.free(Watermarks.NO_WATERMARK), toStore, r);
        }
        // The batch's own evidence (its redeliveries too, which reach back to nothing) joined to what it stores.
        Optional<Backlog> own = seen.all().map(all -> toStore.map(t -> Backlog.joined(t, all, spec.idleAfter())).orElse(all));
        Optional<Backlog> forBatch = own.map(o -> stored.map(s -> Backlog.joined(s, o, spec.idleAfter())).orElse(o)).or(() -> stored);
        // What every visitor reads once the batch has stored what it stores (not its redeliveries' evidence).
        Watermark shared = Watermarks.watermark(spec, maxEt, lastArrival, toStore.or(() -> stored), now.toEpochMilli());
        Watermark batch = own.isEmpty() ? shared : Watermarks.watermark(spec, maxEt, lastArrival, forBatch, now.toEpochMilli());
        return new BatchWatermark(batch, shared, toStore, r);
    }
}
