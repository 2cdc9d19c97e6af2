package dev.fanin.bench;

import dev.fanin.core.memory.ForwardClock;
import dev.fanin.aws.dynamodb.DynamoDbWatermarkStore;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.MetricNames;
import dev.fanin.core.service.SweepReport;
import dev.fanin.core.service.SweepService;
import dev.fanin.core.service.TimerService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Function;

/**
 * Runs a workload through the real {@link IngestService}, {@link SweepService} and {@link TimerService} on a
 * simulated clock, with the metered stores. The event loop takes, in time order: SQS batches (see
 * {@link BatchShape}), timer messages at their delivery time (when timers are on), and the sweep schedule. It ends once
 * the input is consumed and no window is due any more (at the latest 3 hours after the last arrival).
 */
final class Simulation {

    /**
     * How the event source mapping cuts batches: up to {@code size} messages, closed when the next message comes
     * more than {@code window} after the batch's first. {@code DEFAULT} is the tests' small shape, the template's
     * defaults before issue 14 (BatchSize 10, no batching window, approximated by the 100 ms a poll takes to fill);
     * the template's defaults now are {@link BenchMain#DEFAULT_BATCH_SIZE} within {@link BenchMain#DEFAULT_BATCHING_WINDOW_MS}.
     */
    record BatchShape(int size, Duration window) {
        static final BatchShape DEFAULT = new BatchShape(10, Duration.ofMillis(100));
    }

    static final Duration SWEEP_EVERY = Duration.ofSeconds(60);
    /**
     * Shards the sweeper works on at once (template {@code SweepParallelism}; {@code TemplateDefaultsTest} holds them
     * equal): its shards run one after the other here ({@link InlineShards}), and their calls are billed as 8 threads
     * wait on them.
     */
    static final int SWEEP_PARALLELISM = 8;
    /** The template's second sweeper schedule: a run over every due-bucket shard, hourly. */
    static final Duration EVERY_SHARD_EVERY = Duration.ofHours(1);
    /** Seeds the choice of container for each invocation, the same in every run. */
    private static final long CONTAINER_SEED = 7;
    private static final Duration GIVE_UP_AFTER = Duration.ofHours(3);

    /**
     * The timer queue's event source as the template configures it ({@code TimerBatchSize},
     * {@code TimerMaxBatchingWindowSeconds}; {@code TemplateDefaultsTest} holds them equal).
     */
    static final BatchShape TIMER_QUEUE = new BatchShape(10, Duration.ofSeconds(1));

    /**
     * @param timers     whether timer messages are delivered (false: the sweeper alone closes windows)
     * @param timerQueue how the timer queue's event source batches them
     */
    record Mode(String name, boolean timers, BatchShape timerQueue) {
        static final Mode TIMERS = new Mode("timers+sweeper", true, TIMER_QUEUE);
        static final Mode SWEEPER = new Mode("sweeper only", false, TIMER_QUEUE);

        /** Timers delivered with the given batching window on the timer queue. */
        static Mode timers(Duration timerBatchingWindow) {
            return new Mode(TIMERS.name(), true, new BatchShape(TIMER_QUEUE.size(), timerBatchingWindow));
        }
    }

    /**
     * @param sideSends          side-output and dead-letter sends, one request each, by the guarantee they serve ({@link SideSends})
     * @param inputQueueRequests the input batches' receives and deletes ({@link SqsRequests})
     * @param timerQueueRequests the timer batches' receives and deletes ({@link SqsRequests})
     * @param correctionEmitCalls of {@code emitCalls}, the PutEvents calls only later revisions take ({@link TimedEmitter})
     * @param upkeep             the pipeline history's upkeep, beside {@code bill} ({@link PipelineHistoryUpkeep})
     * @param span               simulated time from the first arrival to the end of the run (its last sweep)
     */
    record Result(Workload workload, Mode mode, DynamoDbBill bill, double meanHeadBytes, double windowWriteUnitsMetric,
                  List<TimedEmitter.Emitted> emitted, long emitCalls, long batches, long sweeps, long timersArmed,
                  long timerSendRequests, long timersDelivered, long timerInvocations, long accepted, long duplicates, long late, long tooLate,
                  long failedMessages, long sideRecords, long deadLetters, Map<Guarantee, Long> sideSends, FunctionLoad ingestLoad, FunctionLoad timerLoad,
                  FunctionLoad sweeperLoad, long inputQueueRequests, long timerQueueRequests, long correctionEmitCalls, DynamoDbBill upkeep,
                  Duration span) {

        /** fanin's input queue: the batches' receives and deletes, and its mapping's empty long polls over the run. */
        long inputSqsRequests() {
            return inputQueueRequests + EventSourcePolls.FANIN_INPUT.over(span);
        }

        /** fanin's timer queue: the sends as made, the batches' receives and deletes, its mapping's empty long polls. */
        long timerSqsRequests() {
            return timerSendRequests + timerQueueRequests + EventSourcePolls.FANIN_TIMERS.over(span);
        }

        /** What the run's DynamoDB calls cost: the window table's ({@code bill}) and the pipeline history's upkeep. */
        DynamoDbBill pricedBill() {
            return bill.plus(upkeep);
        }

        /** Every side-output and dead-letter send. */
        long sideOutputSends() {
            return sideSends.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Write units of watermark advances (outside the services' per-window WriteUnits metric). */
        double watermarkWriteUnits() {
            return bill.writeUnits(Purpose.WATERMARK_WRITE);
        }

        /** Write units on the open-window counter item (outside the services' per-window WriteUnits metric). */
        double slotWriteUnits() {
            return bill.writeUnits(Purpose.COUNTER_WRITE);
        }
    }

    /** The window and watermark stores a run uses; the benchmark's are metered, the cross-check's are the AWS adapters. */
    interface Stores {
        WindowStore windows();

        WatermarkStore watermarks();

        /** Whether any window still has a due time (not billed). */
        boolean anyDue();

        double meanHeadBytes();

        /** The next calls run in function container {@code container} ({@link Containers}). */
        default void container(int container) {
        }
    }

    private Simulation() { }

    static Result run(FaninConfig config, Workload workload, Mode mode, BatchShape shape) {
        return run(config, workload, mode, shape, (Intervals) null);
    }

    static Result run(FaninConfig config, Workload workload, Mode mode, BatchShape shape, DynamoDbBill bill, Stores stores) {
        return run(config, workload, mode, shape, Containers.DEFAULT, bill, stores, null);
    }

    static Result run(FaninConfig config, Workload workload, Mode mode, BatchShape shape, Containers containers, DynamoDbBill bill,
                      Stores stores) {
        return run(config, workload, mode, shape, containers, bill, stores, null);
    }

    /**
     * The function containers invocations run in: each ingest invocation in one of {@code ingest} warm containers and
     * each timer invocation in one of {@code timer}, chosen by a seeded random; the sweeper in one container of its
     * own. Each container keeps its own slice cache (one the store has not used yet starts cold). Lambda runs an
     * invocation in an idle warm container when it has one, so a function keeps about as many containers as it runs
     * invocations at once: by Little's law, invocations a second times an invocation's duration. Every default profile
     * needs less than one at once (an ingest invocation takes at least 110 events/s, no profile sends more than 100/s;
     * timer batches are rarer still), hence the default, one of each; a profile that keeps more busy says so.
     */
    record Containers(int ingest, int timer) {
        static final Containers DEFAULT = new Containers(1, 1);

        Containers {
            if (ingest < 1 || timer < 1) {
                throw new IllegalArgumentException("at least one ingest and one timer container");
            }
        }
    }

    /**
     * The figures of a run up to the end of one interval of simulated time (cumulative from the start of the run).
     *
     * @param events input events handled so far (duplicates included)
     */
    record Snapshot(Instant end, DynamoDbBill bill, long events, long batches, long invocations, long sqsRequests, long sqsSends,
                    long emitted, long emitCalls, DynamoDbBill upkeep) { }

    /**
     * What a run pays outside the window table, as it goes: fanin's SQS requests ({@link SqsRequests}: the input and
     * timer batches' receives and deletes, the timer sends and the side output's; the empty long polls are added by the
     * span), and the pipeline history's upkeep.
     */
    private static final class OutsideTheTable {
        final SimTimers timers;
        final SideSends side;
        final PipelineHistoryUpkeep upkeep;
        long input;
        long timer;

        OutsideTheTable(SimTimers timers, SideSends side, PipelineHistoryUpkeep upkeep) {
            this.timers = timers;
            this.side = side;
            this.upkeep = upkeep;
        }

        /** The sends the functions wait on: timers and side-output records. */
        long sends() {
            return timers.sendRequests() + side.sends();
        }

        /** Every request so far, with both mappings' empty long polls over {@code span}. */
        long upTo(Duration span) {
            return input + timer + sends() + EventSourcePolls.fanin(span);
        }
    }

    /**
     * Snapshots of a run every {@code length} of simulated time, taken when the clock passes each boundary; or, made by
     * {@link #atEvents}, after the batch that brings the events handled to each step, and once more at the end of the run.
     */
    static final class Intervals {
        final Duration length;
        final List<Long> eventSteps;
        final List<Snapshot> snapshots = new ArrayList<>();
        private Instant next;

        Intervals(Duration length) {
            this.length = length;
            this.eventSteps = List.of();
        }

        private Intervals(List<Long> eventSteps) {
            this.length = null;
            this.eventSteps = List.copyOf(eventSteps);
        }

        /** @param eventSteps ascending counts of input events handled */
        static Intervals atEvents(List<Long> eventSteps) {
            return new Intervals(eventSteps);
        }

        boolean byTime() {
            return length != null;
        }
    }

    /** A run with the metered stores, snapshot every interval when {@code intervals} is not null. */
    static Result run(FaninConfig config, Workload workload, Mode mode, BatchShape shape, Intervals intervals) {
        return run(config, workload, mode, shape, Containers.DEFAULT, intervals);
    }

    /** A run with the metered stores in {@code containers}, snapshot every interval when {@code intervals} is not null. */
    static Result run(FaninConfig config, Workload workload, Mode mode, BatchShape shape, Containers containers, Intervals intervals) {
        DynamoDbBill bill = new DynamoDbBill();
        MeteredWindowStore store = new MeteredWindowStore(DynamoDbWindowStore.Settings.defaults(), bill);
        store.countWith(w -> {
            WindowState s = WindowCodec.decode(w, config.pipeline(w.ref().pipeline()).orElseThrow());
            return s.revisionEvents() + s.lateEvents();
        });
        MeteredWatermarkStore watermarks = new MeteredWatermarkStore(DynamoDbWatermarkStore.Settings.defaults(), bill);
        return run(config, workload, mode, shape, containers, bill, new Stores() {
            public WindowStore windows() {
                return store;
            }

            public WatermarkStore watermarks() {
                return watermarks;
            }

            public boolean anyDue() {
                return store.anyDue();
            }

            public double meanHeadBytes() {
                return store.meanHeadBytes();
            }

            public void container(int container) {
                store.useContainer(container);
            }
        }, intervals);
    }

    private static Result run(FaninConfig config, Workload workload, Mode mode, BatchShape shape, Containers containers, DynamoDbBill bill,
                              Stores stores, Intervals intervals) {
        SplittableRandom placement = new SplittableRandom(CONTAINER_SEED);
        Instant start = workload.arrivals().get(0).at();
        ForwardClock clock = new ForwardClock(start);
        TimedEmitter emitter = new TimedEmitter(clock);
        SimTimers timers = new SimTimers(mode.timers());
        SideSends side = new SideSends();
        double[] writeUnitsMetric = new double[1];
        Metrics metrics = (name, value, unit, dimensions) -> {
            if (MetricNames.WRITE_UNITS.equals(name)) {
                writeUnitsMetric[0] += value;
            }
        };
        FaninEngine engine = new FaninEngine(config, new FaninPorts(stores.windows(), stores.watermarks(), emitter, timers, side, side, metrics),
                FaninSettings.defaults().withSweepParallelism(SWEEP_PARALLELISM), clock);
        IngestService ingest = new IngestService(engine);
        // The bench's one price table gives each call's wait, so the sweeper's shard threads can be timed.
        PriceTable.CallMillis waits = PriceTable.usEast1().waits();
        DoubleSupplier dynamoDbWait = () -> waits.of(bill.callsByOperation(), bill.readUnits(), 0, 0);
        InlineShards shards = new InlineShards(dynamoDbWait);
        SweepService sweep = new SweepService(engine, shards);
        TimerService timerService = new TimerService(engine);

        List<List<Arrival>> batches = batches(workload.arrivals(), shape);
        Instant lastArrival = workload.arrivals().get(workload.arrivals().size() - 1).at();
        Instant nextSweep = Instant.ofEpochSecond((start.getEpochSecond() / 60 + 1) * 60);
        int next = 0;
        long sweeps = 0;
        long timerInvocations = 0;
        long accepted = 0;
        long duplicates = 0;
        long late = 0;
        long tooLate = 0;
        long failed = 0;
        long[] events = {0};
        OutsideTheTable outside = new OutsideTheTable(timers, side, new PipelineHistoryUpkeep(config, BenchPipelines.document(config), start));
        FunctionLoad ingestLoad = FunctionLoad.NONE;
        FunctionLoad timerLoad = FunctionLoad.NONE;
        FunctionLoad sweeperLoad = FunctionLoad.NONE;
        while (true) {
            Instant batchAt = next < batches.size() ? handleAt(batches.get(next)) : null;
            Optional<EventSourceBatches.Batch<SimTimers.Pending>> timerBatch = timers.nextBatch(mode.timerQueue());
            Instant timerAt = timerBatch.map(b -> Instant.ofEpochMilli(b.atMillis())).orElse(null);
            if (intervals != null && intervals.byTime()) {
                Instant at = batchAt != null ? batchAt : nextSweep;
                at = timerAt != null && timerAt.isBefore(at) ? timerAt : at;
                at = nextSweep.isBefore(at) ? nextSweep : at;
                snapshotUntil(intervals, at, start, bill, events[0], next, timerInvocations, sweeps, emitter, outside);
            }
            if (batchAt != null && !batchAt.isAfter(nextSweep) && (timerAt == null || !batchAt.isAfter(timerAt))) {
                clock.advanceTo(batchAt);
                List<InboundMessage> messages = new ArrayList<>();
                for (Arrival a : batches.get(next)) {
                    messages.add(a.message(batchAt));
                }
                events[0] += messages.size();
                outside.input += SqsRequests.receiveAndDelete(messages.size());
                int container = placement.nextInt(containers.ingest());
                stores.container(container);
                bill.function(DynamoDbBill.INGEST);
                outside.upkeep.invoked(container, DynamoDbBill.INGEST, batchAt);
                FunctionLoad before = FunctionLoad.reading(bill, emitter.calls(), outside.sends());
                BatchResult r = ingest.handle(messages);
                ingestLoad = ingestLoad.plus(FunctionLoad.reading(bill, emitter.calls(), outside.sends()).since(before, messages.size()));
                accepted += r.eventsAccepted();
                duplicates += r.duplicates();
                late += r.late();
                tooLate += r.tooLate();
                failed += r.failedMessageIds().size();
                next++;
                if (intervals != null && !intervals.byTime()) {
                    snapshotAtEvents(intervals, clock.instant(), start, bill, events[0], next, timerInvocations, sweeps, emitter, outside, false);
                }
            } else if (timerAt != null && !timerAt.isAfter(nextSweep)) {
                clock.advanceTo(timerAt);
                List<SimTimers.Pending> batch = timers.take(timerBatch.orElseThrow());
                timerInvocations++;
                outside.timer += SqsRequests.receiveAndDelete(batch.size());
                int container = containers.ingest() + placement.nextInt(containers.timer());
                stores.container(container);
                bill.function(DynamoDbBill.TIMER);
                outside.upkeep.invoked(container, DynamoDbBill.TIMER, timerAt);
                FunctionLoad before = FunctionLoad.reading(bill, emitter.calls(), outside.sends());
                timerService.fireAll(batch.stream().map(SimTimers.Pending::wakeup).toList());
                timerLoad = timerLoad.plus(FunctionLoad.reading(bill, emitter.calls(), outside.sends()).since(before, batch.size()));
            } else {
                clock.advanceTo(nextSweep);
                stores.container(containers.ingest() + containers.timer());
                outside.upkeep.invoked(containers.ingest() + containers.timer(), DynamoDbBill.SWEEPER, nextSweep);
                // The template's two schedules: SweepSchedule's run, and on the hour also the run over every shard.
                boolean onTheHour = nextSweep.getEpochSecond() % EVERY_SHARD_EVERY.toSeconds() == 0;
                List<Function<Instant, SweepReport>> runs = onTheHour ? List.of(sweep::sweep, sweep::sweepEveryShard) : List.of(sweep::sweep);
                for (Function<Instant, SweepReport> run : runs) {
                    bill.function(DynamoDbBill.SWEEPER);
                    FunctionLoad before = FunctionLoad.reading(bill, emitter.calls(), outside.sends());
                    double waitBefore = dynamoDbWait.getAsDouble();
                    run.apply(nextSweep.plus(SWEEP_EVERY).minusSeconds(10));
                    double runWait = dynamoDbWait.getAsDouble() - waitBefore;
                    bill.overlap(runWait - shards.wallMillis(runWait, SWEEP_PARALLELISM));
                    sweeperLoad = sweeperLoad.plus(FunctionLoad.reading(bill, emitter.calls(), outside.sends()).since(before, 0));
                    sweeps++;
                }
                nextSweep = nextSweep.plus(SWEEP_EVERY);
                boolean drained = next >= batches.size() && !timers.anyPending() && !stores.anyDue();
                if (drained || clock.instant().isAfter(lastArrival.plus(GIVE_UP_AFTER))) {
                    if (intervals != null && !intervals.byTime()) {
                        snapshotAtEvents(intervals, clock.instant(), start, bill, events[0], next, timerInvocations, sweeps, emitter, outside, true);
                    }
                    break;
                }
            }
        }
        return new Result(workload, mode, bill, stores.meanHeadBytes(), writeUnitsMetric[0], emitter.emitted(), emitter.calls(),
                batches.size(), sweeps, timers.armed(), timers.sendRequests(), timers.delivered(), timerInvocations, accepted, duplicates, late, tooLate,
                failed, side.sideRecords(), side.deadLetters(), side.byGuarantee(), ingestLoad, timerLoad, sweeperLoad, outside.input, outside.timer,
                emitter.correctionCalls(), outside.upkeep.bill(), Duration.between(start, clock.instant()));
    }

    /** Takes the snapshots of every interval that ends before {@code at}, as the run stands. */
    private static void snapshotUntil(Intervals intervals, Instant at, Instant start, DynamoDbBill bill, long events, long batches,
                                      long timerInvocations, long sweeps, TimedEmitter emitter, OutsideTheTable requests) {
        if (intervals.next == null) {
            intervals.next = start.plus(intervals.length);
        }
        while (at.isAfter(intervals.next)) {
            long sqs = requests.upTo(Duration.between(start, intervals.next));
            intervals.snapshots.add(new Snapshot(intervals.next, bill.copy(), events, batches, batches + timerInvocations + sweeps, sqs,
                    requests.sends(), emitter.emitted().size(), emitter.calls(), requests.upkeep.bill().copy()));
            intervals.next = intervals.next.plus(intervals.length);
        }
    }

    /** A snapshot when the events handled reach the next step, or at the run's {@code end}. */
    private static void snapshotAtEvents(Intervals intervals, Instant at, Instant start, DynamoDbBill bill, long events, long batches,
                                         long timerInvocations, long sweeps, TimedEmitter emitter, OutsideTheTable requests,
                                         boolean end) {
        int taken = intervals.snapshots.size();
        if (end || (taken < intervals.eventSteps.size() && events >= intervals.eventSteps.get(taken))) {
            long sqs = requests.upTo(Duration.between(start, at));
            intervals.snapshots.add(new Snapshot(at, bill.copy(), events, batches, batches + timerInvocations + sweeps, sqs,
                    requests.sends(), emitter.emitted().size(), emitter.calls(), requests.upkeep.bill().copy()));
        }
    }

    /** SQS batches as the event source mapping forms them. */
    static List<List<Arrival>> batches(List<Arrival> arrivals, BatchShape shape) {
        List<List<Arrival>> batches = new ArrayList<>();
        List<Arrival> current = new ArrayList<>();
        for (Arrival a : arrivals) {
            if (!current.isEmpty() && (current.size() == shape.size() || a.at().isAfter(current.get(0).at().plus(shape.window())))) {
                batches.add(current);
                current = new ArrayList<>();
            }
            current.add(a);
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }

    /** A batch is handled when its last message has arrived. */
    static Instant handleAt(List<Arrival> batch) {
        return batch.get(batch.size() - 1).at();
    }
}
