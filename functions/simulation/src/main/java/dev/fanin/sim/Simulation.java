package dev.fanin.sim;

import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;

import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.MetricNames;
import dev.fanin.core.service.SweepReport;
import dev.fanin.core.service.SweepService;
import dev.fanin.core.service.TimerService;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * A deterministic simulation of fanin in production: the real {@link IngestService}, {@link SweepService} and
 * {@link TimerService}, each worker with its own {@link FaninEngine} and skewed clock, sharing one in-memory store
 * ({@link PipelineStores}: the core's {@code InMemoryWindowStore}, one per pipeline) behind fault-injecting decorators, fed by a simulated SQS queue, a simulated timer queue
 * and a one-minute schedule, all on one simulated clock. Single-threaded: concurrency is simulated by running another
 * worker's whole invocation between two port calls of the current one ({@link Faults.Interleaver}), so every
 * interleaving is reproducible from the seed.
 *
 * <p>The run ends when the producers are done, the queue is empty and every window is closed with nothing due (or at
 * a safety limit, which then shows as windows left open). The invariants are then checked ({@link #finish}), and the
 * clock is advanced past the last TTL to check that nothing remains.
 */
public final class Simulation {

    static final Instant START = Instant.parse("2026-11-29T00:30:00Z");
    private static final int BATCH_SIZE = 10;
    /** Due-bucket shards of the in-memory store: several, so sweeps rotate over shards; fewer than DynamoDB's 16 because
     * the in-memory index is a scan per shard. */
    private static final int DUE_SHARDS = 4;

    private final SimulationConfig config;
    private final Random random;
    private final SimClock clock = new SimClock(START);
    private final FaninConfig fanin;
    private final FaninSettings settings;
    private final Violations violations = new Violations();
    private final PipelineStores store;
    private final CommitLedger ledger;
    private final Faults faults;
    private final EmissionLog emissions = new EmissionLog(violations);
    private final Outputs outputs;
    private final SimMetrics metrics = new SimMetrics();
    private final SimQueue<SimMessage> input;
    private final SimQueue<WindowTimers.Wakeup> timerQueue;
    private final FaninPorts ports;
    private final Workload workload;
    private final List<Worker> workers = new ArrayList<>();
    private final Map<String, Long> peakOpen = new TreeMap<>();
    private final Set<String> boundBroken = new HashSet<>();
    private final List<Long> exhaustedSweeps = new ArrayList<>();
    private long invocationErrors;
    private long unexplained;
    /** The batches of the ingest invocations running now, innermost first (interleavings nest). */
    private final java.util.Deque<List<SimQueue.Delivery<SimMessage>>> ingesting = new java.util.ArrayDeque<>();
    private long sameKeyInterleavings;
    /** Messages an interleaved ingest received while another invocation held them (SQS may hand one out twice). */
    private final java.util.Map<String, SimMessage> handedTwice = new java.util.HashMap<>();
    private int current = -1;

    private Simulation(SimulationConfig config) {
        this.config = config;
        this.random = new Random(config.seed());
        this.fanin = SimPipelines.load(config.maxOpenWindows());
        this.store = new PipelineStores(fanin.pipelines().stream().map(PipelineConfig::name).toList(), DUE_SHARDS);
        this.settings = FaninSettings.defaults().withMaxReceiveCount(config.maxReceiveCount());
        this.ledger = new CommitLedger(fanin, settings.lease(), clock, violations, emissions);
        // About 5.7 port calls per event were measured; estimating 5 spreads the crashes over the first ~90 % of the run,
        // so the requested number is reached.
        this.faults = new Faults(random, config.faults(), config.events() * 5L, clock);
        this.input = new SimQueue<>(config.visibilityTimeout().toMillis(), config.maxReceiveCount(), this::redriven);
        this.timerQueue = new SimQueue<>(Duration.ofSeconds(30).toMillis(), 5, (id, timer) -> { });
        // A message handed to two invocations at once may be deleted by one while the other dead-letters it.
        this.outputs = new Outputs(id -> input.payload(id) != null ? input.payload(id) : handedTwice.get(id), violations, clock::millis,
                Workload.ON_TIME_DELAY_MILLIS + 1_000 + 2 * config.maxSkew().toMillis(), input::receiveCount, config.maxReceiveCount());
        FaultySinks sinks = new FaultySinks(outputs, outputs, faults);
        this.ports = new FaninPorts(
                new FaultyWindowStore(new ObservedStore(store, ledger), faults),
                new FaultyWatermarkStore(new InMemoryWatermarkStore(), faults),
                new FaultyEmitter(emissions, faults),
                new SimTimers(timerQueue, clock, faults),
                sinks, sinks, metrics);
        this.workload = new Workload(config, random, clock.millis());
        for (int i = 0; i < config.workers(); i++) {
            workers.add(new Worker(i));
        }
        faults.interleaver(new Faults.Interleaver() {
            @Override
            public void runAnother() {
                interleave();
            }

            @Override
            public void stallPastLease() {
                clock.advanceTo(clock.millis() + settings.lease().toMillis() + 2 * config.maxSkew().toMillis() + 1_000);
                sweep(another());
            }
        });
    }

    public static SimulationReport run(SimulationConfig config) {
        return new Simulation(config).execute();
    }

    /** A Lambda container: its own engine and clock skew; a crash replaces it by a fresh one (cold start). */
    private final class Worker {
        final int id;
        FaninEngine engine;
        IngestService ingest;
        SweepService sweeper;
        TimerService timers;

        Worker(int id) {
            this.id = id;
            boot();
        }

        void boot() {
            long max = config.maxSkew().toMillis();
            long skew = max == 0 ? 0 : random.nextLong(-max, max + 1);
            engine = new FaninEngine(fanin, ports, settings, clock.skewed(skew));
            ingest = new IngestService(engine);
            sweeper = new SweepService(engine);
            timers = new TimerService(engine);
        }
    }

    private SimulationReport execute() {
        long wallStart = System.nanoTime();
        long sweepPeriod = config.sweepPeriod().toMillis();
        long nextSweepAt = clock.millis() + sweepPeriod;
        long longestLifetime = fanin.pipelines().stream().mapToLong(p -> p.triggers().maxLifetime().toMillis()).max().orElse(0);
        long stopBy = Long.MAX_VALUE;
        int sweeps = 0;
        while (true) {
            long now = clock.millis();
            for (Workload.Send s : workload.due(now)) {
                input.send(s.message().messageId(), s.message(), s.at(), 0);
            }
            drainInput();
            fireTimers();
            boolean swept = false;
            if (clock.millis() >= nextSweepAt) {
                sweep(pick());
                if (faults.doubleSweep()) {
                    sweep(pick());
                }
                nextSweepAt += sweepPeriod;
                swept = true;
                if (++sweeps % 5 == 0) {
                    housekeeping();
                }
            }
            if (workload.done() && input.size() == 0) {
                if (stopBy == Long.MAX_VALUE) {
                    stopBy = clock.millis() + longestLifetime + Duration.ofHours(1).toMillis();
                }
                if ((swept && quiescent()) || clock.millis() > stopBy) {
                    break;
                }
            }
            long inputAt = input.nextVisibleAt() == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(input.nextVisibleAt(), consumersBackAt());
            long next = Math.min(Math.min(workload.nextSendAt(), inputAt), Math.min(timerQueue.nextVisibleAt(), nextSweepAt));
            next = Math.max(next, clock.millis() + 1);
            clock.advanceTo((next + 999) / 1000 * 1000);
        }
        return finish(Duration.ofNanos(System.nanoTime() - wallStart));
    }

    /** When the input queue's consumers receive again: now, or the end of the outage under way. */
    private long consumersBackAt() {
        return config.outageEndsAt(START.toEpochMilli(), clock.millis());
    }

    private boolean consumersDown() {
        return consumersBackAt() > clock.millis();
    }

    private void drainInput() {
        while (!consumersDown() && input.hasVisible(clock.millis())) {
            ingest(pick(), input.receive(BATCH_SIZE, clock.millis(), random));
        }
    }

    private void fireTimers() {
        while (timerQueue.hasVisible(clock.millis())) {
            for (SimQueue.Delivery<WindowTimers.Wakeup> d : timerQueue.receive(BATCH_SIZE, clock.millis(), random)) {
                timer(pick(), d);
            }
        }
    }

    private void ingest(Worker w, List<SimQueue.Delivery<SimMessage>> batch) {
        if (batch.isEmpty()) {
            return;
        }
        ingesting.push(batch);
        try {
            ingestBatch(w, batch);
        } finally {
            ingesting.pop();
        }
    }

    private static String keyOf(Identity id) {
        return id.pipeline() + "\u0000" + id.key();
    }

    private void ingestBatch(Worker w, List<SimQueue.Delivery<SimMessage>> batch) {
        List<InboundMessage> messages = new ArrayList<>();
        Instant receivedAt = w.engine.clock().instant();
        for (SimQueue.Delivery<SimMessage> d : batch) {
            messages.add(SqsDeliveries.inbound(d.messageId(), d.payload().body(),
                    SqsDeliveries.systemAttributes(Instant.ofEpochMilli(d.sentAt()), d.receiveCount()), receivedAt));
        }
        // The invocation's deadline, as the function takes it from its timeout: slow calls or a stalled emission can
        // leave the rest of a batch out of time, handed back and redelivered.
        Instant deadline = receivedAt.plus(settings.ingestTimeout());
        invoke(w, () -> {
            BatchResult r = w.ingest.handle(messages, deadline);
            Set<String> failed = new HashSet<>(r.failedMessageIds());
            for (SimQueue.Delivery<SimMessage> d : batch) {
                if (!failed.contains(d.messageId()) && !faults.loseDelete()) {
                    input.delete(d.messageId());
                }
            }
        });
    }

    private void timer(Worker w, SimQueue.Delivery<WindowTimers.Wakeup> d) {
        invoke(w, () -> {
            w.timers.fire(d.payload());
            timerQueue.delete(d.messageId());
        });
    }

    private void sweep(Worker w) {
        invoke(w, () -> {
            SweepReport r = w.sweeper.sweep(w.engine.clock().instant().plusSeconds(50));
            if (r.exhausted()) {
                exhaustedSweeps.add(clock.millis());
            }
        });
    }

    /** One invocation of a function: a crash kills the container (the batch is not acknowledged); errors fail it. */
    private void invoke(Worker w, Runnable body) {
        int outer = current;
        current = w.id;
        faults.enter();
        try {
            body.run();
        } catch (SimulatedCrash crash) {
            w.boot();
        } catch (RuntimeException e) {
            invocationErrors++;
            // An invocation fails only for a fault the run injected into it (throttling, a failed or stalled emission;
            // a crash is an Error, above): any other failure is a defect, however well the queue's redelivery or the
            // sweeper hides it.
            if (faults.failingFaultsHere() == 0 && unexplained++ < 20) {
                violations.add("invocation failed with no fault injected into it: " + e);
            }
        } finally {
            faults.exit();
            current = outer;
            checkOpenBound();
        }
    }

    /** Another worker runs one whole invocation now, between two port calls of the current one. */
    private void interleave() {
        double r = random.nextDouble();
        Worker other = another();
        if (r < 0.6 && !consumersDown() && (!ingesting.isEmpty() || input.hasVisible(clock.millis()))) {
            ingest(other, interleavedBatch());
        } else if (r < 0.8 && timerQueue.hasVisible(clock.millis())) {
            for (SimQueue.Delivery<WindowTimers.Wakeup> d : timerQueue.receive(1, clock.millis(), random)) {
                timer(other, d);
            }
        } else {
            sweep(other);
        }
    }

    /**
     * The batch another worker takes while the current one runs. When the current invocation is an ingest, a batch on
     * the keys it is ingesting (SQS does not route by key, so two invocations on one key at once are common): visible
     * messages of those keys, and a copy of some of the current batch's own messages (a standard queue may hand one
     * message to two consumers at once). Else any visible messages.
     */
    private List<SimQueue.Delivery<SimMessage>> interleavedBatch() {
        int size = 1 + random.nextInt(BATCH_SIZE);
        List<SimQueue.Delivery<SimMessage>> current = ingesting.peek();
        if (current != null) {
            Set<String> keys = new HashSet<>();
            current.forEach(d -> d.payload().identities().forEach(id -> keys.add(keyOf(id))));
            List<SimQueue.Delivery<SimMessage>> sameKeys = new ArrayList<>(input.receive(size, clock.millis(), random,
                    m -> m.identities().stream().anyMatch(id -> keys.contains(keyOf(id)))));
            for (SimQueue.Delivery<SimMessage> d : current) {
                if (sameKeys.size() < BATCH_SIZE && random.nextBoolean()) {
                    sameKeys.add(d);
                    handedTwice.put(d.messageId(), d.payload());
                }
            }
            if (!sameKeys.isEmpty()) {
                sameKeyInterleavings++;
                return sameKeys;
            }
        }
        return input.receive(size, clock.millis(), random);
    }

    private Worker pick() {
        return workers.get(random.nextInt(workers.size()));
    }

    private Worker another() {
        if (workers.size() == 1) {
            return workers.get(0);
        }
        int i = random.nextInt(workers.size() - 1);
        return workers.get(i >= current && current >= 0 ? i + 1 : i);
    }

    private void redriven(String id, SimMessage message) {
        outputs.redriven(id, message);
    }

    /** Windows already reported unlisted (each once). */
    private final Set<WindowRef> unlisted = new HashSet<>();

    private void checkOpenBound() {
        for (PipelineConfig p : fanin.pipelines()) {
            // The slots counted are never fewer than the windows holding one (checked in housekeeping), so a counter
            // within the bound means the windows are too.
            long open = store.openWindows(p.name());
            peakOpen.merge(p.name(), open, Math::max);
            if (open > p.bounds().maxOpenWindows() && boundBroken.add(p.name())) {
                violations.add("pipeline " + p.name() + " holds " + open + " open-window slots, over its bound " + p.bounds().maxOpenWindows()
                        + " (at " + clock.instant() + ")");
            }
        }
    }

    /**
     * The open-window slots counted are never fewer than the windows holding one (they may be more: slots a crash left
     * behind, until their epoch retires); every window with a due time is listed in a due bucket (itself, or its whole
     * key), so the sweeper finds it whatever happens to its timers; TTL deletes only windows that are done.
     */
    private void housekeeping() {
        Map<String, Long> open = new HashMap<>();
        long now = clock.millis();
        Set<WindowRef> listed = new HashSet<>();
        store.dueBuckets().forEach(b -> listed.addAll(b.entries()));
        for (StoredWindow w : store.all()) {
            // A live session is also covered by its key's entry; a committed one only by its own.
            boolean byKey = store.isLive(w.ref()) && listed.contains(WindowRef.wholeKey(w.ref().pipeline(), w.ref().key()));
            if (w.dueAt() != null && !listed.contains(w.ref()) && !byKey && unlisted.add(w.ref())) {
                violations.add("window " + w.ref() + " is " + w.status() + " and due at " + w.dueAt()
                        + " but no due bucket lists it (at " + Instant.ofEpochMilli(now) + ")");
            }
            PipelineConfig pipeline = fanin.pipeline(w.ref().pipeline()).orElseThrow();
            if (w.status().isOpen() && dev.fanin.core.machine.WindowCodec.decode(w, pipeline).holdsSlot()) {
                open.merge(w.ref().pipeline(), 1L, Long::sum);
            }
            if (!w.expiresAt().isAfter(clock.instant()) && !done(w)) {
                violations.add("window " + w.ref() + " reaches its TTL " + w.expiresAt() + " while " + w.status()
                        + (w.dueAt() != null ? " and due at " + w.dueAt() : ""));
            }
        }
        for (PipelineConfig p : fanin.pipelines()) {
            long counted = store.openWindows(p.name());
            long actual = open.getOrDefault(p.name(), 0L);
            if (counted < actual) {
                violations.add("open-window counter of " + p.name() + " says " + counted + " but " + actual + " windows hold a slot (at "
                        + Instant.ofEpochMilli(now) + ")");
            }
        }
        store.expire(clock.instant());
    }

    private static boolean done(StoredWindow w) {
        return (w.status() == WindowStatus.CLOSED || w.status() == WindowStatus.MERGED) && w.dueAt() == null;
    }

    private boolean quiescent() {
        return store.all().stream().allMatch(Simulation::done);
    }

    private SimulationReport finish(Duration wall) {
        Invariants.Result r = new Invariants(config, settings, fanin, ledger, emissions, outputs, faults, workload, violations,
                exhaustedSweeps).check(store, clock);
        return new SimulationReport(config.seed(), config.shapes(), workload.events(), workload.messages(), workload.duplicates(),
                workload.reordered(), workload.late(), workload.veryLate(), ledger.windows().size(),
                ledger.windows().values().stream().filter(l -> l.merged).count(), ledger.revisionsCommitted(), emissions.emissions(),
                ledger.partialFires(), faults.calls(), faults.crashes(), faults.throttles(), faults.failedEmits(), faults.slowEmits(),
                faults.slowCalls(), faults.interleavings(), sameKeyInterleavings, faults.lostTimers(), faults.lostDeletes(), input.redeliveries(),
                metrics.total(MetricNames.TAKEOVERS), metrics.total(MetricNames.DUPLICATE_FLUSHES), metrics.total(MetricNames.ADMISSION_REFUSED),
                invocationErrors, r.counted(), outputs.late().size(), outputs.dead().size(), r.lost(), r.doubleCounted(),
                r.overlappingSessions(), r.duplicateCommits(), r.leftOpen(), r.closedLate(), Map.copyOf(peakOpen), r.itemsAfterTtl(),
                Map.copyOf(outputs.reasons()), Duration.ofMillis(r.simulatedMillis()), wall, violations.count(), violations.first());
    }
}
