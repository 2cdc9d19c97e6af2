package dev.fanin.cli.replay;

import dev.fanin.core.memory.ForwardClock;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.dynamodb.WindowTableReader;
import dev.fanin.aws.sqs.SqsDeadLetters;
import dev.fanin.bench.EventSourceBatches;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.window.WindowStatus;
import dev.fanin.lambda.FaninRuntime;
import dev.fanin.lambda.InProcessContext;
import dev.fanin.lambda.IngestFunction;
import dev.fanin.lambda.SweeperFunction;
import dev.fanin.lambda.TimerFunction;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.TemplateResources;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Runs a trace through the real Lambda handlers against a local endpoint on a {@link ForwardClock}, as the Lambda
 * service would run them: ingest batches formed as the SQS event source forms them, failed messages redelivered,
 * timers delivered at their due time, the sweeper on its one-minute schedule. Every step is saved in a
 * {@link ReplayState} so a replay whose process dies can be resumed ({@link ReplayOptions#resume()}): the messages
 * of the step it died in are redelivered, as SQS would.
 *
 * <p>Time moves only from one step to the next; sweeps that would find nothing due are skipped (the due buckets are a
 * sweep's only input, so skipping them changes nothing but the run time).
 */
final class Replay {

    static final long MINUTE = 60_000;
    /** How long a timer message the timer function reported as failed stays invisible (simulated). */
    static final Duration RETRY_DELAY = Duration.ofSeconds(1);

    private final ReplayOptions options;
    private final List<TraceMessage> trace;
    private final FaninConfig config;
    private final TemplateSettings template;
    private final LocalAwsEndpoint endpoint;
    private final OutputFiles outputs;
    private final Path stateFile;
    private final PrintStream notes;
    private ReplayState state;
    private ForwardClock clock;
    private FaninRuntime runtime;
    private QueueDrains drains;
    private Outages outages;
    private long boundMillis;

    Replay(ReplayOptions options, List<TraceMessage> trace, FaninConfig config, LocalAwsEndpoint endpoint, PrintStream notes) {
        this.options = options;
        this.trace = trace;
        this.config = config;
        this.template = TemplateSettings.read(options.template());
        this.endpoint = endpoint;
        this.outputs = new OutputFiles(options.out());
        this.stateFile = options.out().resolve(ReplayState.FILE_NAME);
        this.notes = notes;
    }

    /** Runs (or resumes) the replay to its end and returns the final state. */
    ReplayState run() {
        start();
        notes.println("replay: ready (resources " + state.prefix + "*, simulated time " + Instant.ofEpochMilli(state.nowMillis)
                + ", " + (trace.size() - state.cursor) + " of " + trace.size() + " trace messages to go)");
        drains.settle(clock.instant(), 10);
        while (true) {
            Optional<Step> step = nextStep();
            if (step.isEmpty()) {
                break;
            }
            step.get().run();
        }
        drains.settle(clock.instant(), 10);
        // Counted in the table itself: the open-window counter may count more after a crash (slots a killed
        // invocation took or freed come back when their admission epoch retires, an hour after the bound).
        long open = windowsNotSettled();
        state.counters.put("openWindowsAtEnd", open);
        state.counters.put("openWindowSlotsAtEnd", openWindowSlots());
        state.finished = true;
        save();
        if (open > 0) {
            notes.println("replay: WARNING " + open + " windows are still open at " + clock.instant()
                    + ", the bound (last arrival + the longest maxLifetime + allowedLateness + 3 sweep periods)");
        }
        return state;
    }

    private void start() {
        boolean resuming = options.resume() && Files.isRegularFile(stateFile);
        if (resuming) {
            state = ReplayState.load(stateFile);
            if (state.finished) {
                notes.println("replay: the replay in " + options.out() + " has finished; nothing to resume");
            }
        } else {
            state = new ReplayState();
            state.prefix = options.prefix().orElseGet(() -> "rp" + UUID.randomUUID().toString().substring(0, 8) + "-");
            state.resources = TemplateResources.load(options.template()).createOn(endpoint, state.prefix);
            state.nowMillis = trace.isEmpty() ? 0 : trace.get(0).at().toEpochMilli();
        }
        outputs.restore(state.offsets);
        outputs.lengthsInto(state.offsets);
        clock = new ForwardClock(Instant.ofEpochMilli(state.nowMillis));
        ReplayInterceptor.undelay(Set.of(state.resources.queueUrl("TimerQueue")));
        runtime = newRuntime();
        drains = new QueueDrains(endpoint.sqs(), state, outputs, this::save);
        long firstArrival = trace.isEmpty() ? state.nowMillis : trace.get(0).at().toEpochMilli();
        outages = new Outages(options.outages(), firstArrival, options.backlogShuffle(), options.seed());
        long lastArrival = trace.isEmpty() ? state.nowMillis : trace.get(trace.size() - 1).at().toEpochMilli();
        lastArrival = Math.max(lastArrival, outages.lastDeliveryMillis());
        long longest = config.pipelines().stream()
                .mapToLong(p -> p.triggers().maxLifetime().plus(p.allowedLateness()).toMillis())
                .max().orElse(0);
        boundMillis = lastArrival + longest + runtime.engine().settings().lease().toMillis() + 3 * MINUTE;
        save();
    }

    private FaninRuntime newRuntime() {
        Map<String, String> env = new LinkedHashMap<>(state.resources.functionEnvironment());
        env.put("FANIN_CONFIG", "file:" + options.config().toAbsolutePath());
        env.put("AWS_ENDPOINT_URL", endpoint.endpoint().toString());
        env.put("AWS_REGION", LocalAwsEndpoint.REGION.id());
        env.put("AWS_ACCESS_KEY_ID", "fanin-local");
        env.put("AWS_SECRET_ACCESS_KEY", "fanin-local");
        // One shard at a time: a sweep's store calls then come in one order, so a seeded replay is reproducible.
        env.put("FANIN_SWEEP_PARALLELISM", "1");
        return FaninRuntime.create(env, clock);
    }

    private void save() {
        state.save(stateFile);
    }

    // ------------------------------------------------------------------ choosing the next step

    private interface Step {
        void run();
    }

    private Optional<Step> nextStep() {
        long now = state.nowMillis;
        admitBacklog();
        Map<Delivery, Boolean> fromTrace = new IdentityHashMap<>();
        List<Delivery> pending = new ArrayList<>(state.inputs);
        for (int i = state.cursor; i < trace.size() && i < state.cursor + template.ingestBatchSize()
                && outages.at(trace.get(i).at().toEpochMilli()) == null; i++) {
            Delivery d = Delivery.of(trace.get(i));
            fromTrace.put(d, true);
            pending.add(d);
        }
        Optional<EventSourceBatches.Batch<Delivery>> batch = EventSourceBatches.next(pending, Delivery::visibleAtMillis,
                template.ingestBatchSize(), template.batchingWindowSeconds() * 1000L);
        long inputAt = batch.map(b -> Math.max(b.atMillis(), now)).orElse(Long.MAX_VALUE);
        Optional<EventSourceBatches.Batch<TimerDelivery>> timerBatch = EventSourceBatches.next(state.timers,
                TimerDelivery::deliverAtMillis, template.timerBatchSize(), template.timerBatchingWindowSeconds() * 1000L);
        long timerAt = timerBatch.map(b -> Math.max(b.atMillis(), now)).orElse(Long.MAX_VALUE);
        long other = Math.min(inputAt, timerAt);
        long tick = state.lastSweepMillis == Long.MIN_VALUE ? ceilMinute(now)
                : Math.max(ceilMinute(now), state.lastSweepMillis + MINUTE);
        if (tick < other) {
            Optional<Instant> due = earliestDue();
            if (due.isPresent()) {
                long sweepAt = Math.max(tick, ceilMinute(due.get().toEpochMilli()));
                if (sweepAt < other) {
                    return sweepAt > boundMillis ? Optional.empty() : Optional.of(() -> sweep(sweepAt));
                }
            }
        }
        if (other == Long.MAX_VALUE || other > boundMillis) {
            return Optional.empty();
        }
        if (inputAt <= timerAt) {
            EventSourceBatches.Batch<Delivery> b = batch.orElseThrow();
            return Optional.of(() -> ingest(inputAt, b.deliveries(), fromTrace));
        }
        long at = timerAt;
        List<TimerDelivery> members = timerBatch.orElseThrow().deliveries();
        return Optional.of(() -> timers(at, members));
    }

    /**
     * Moves the trace messages that arrive during an outage, once the trace has been read up to them, into the
     * simulated queue with the visibility the end of the outage gives them (saved with the next step).
     */
    private void admitBacklog() {
        while (state.cursor < trace.size()) {
            Outages.Outage outage = outages.at(trace.get(state.cursor).at().toEpochMilli());
            if (outage == null) {
                return;
            }
            List<Delivery> backlog = new ArrayList<>();
            while (state.cursor < trace.size() && outage.covers(trace.get(state.cursor).at().toEpochMilli())) {
                backlog.add(Delivery.of(trace.get(state.cursor++)));
            }
            state.inputs.addAll(outages.deliver(outage, backlog, template.ingestBatchSize()));
            state.count("messagesHeldByOutages", backlog.size());
        }
    }

    /** Windows in the table that are not closed (or merged), or that still have a due time (a correction pending). */
    private long windowsNotSettled() {
        long[] count = {0};
        table().forEachHead(w -> {
            boolean closed = w.status() == WindowStatus.CLOSED || w.status() == WindowStatus.MERGED;
            if (!closed || w.dueAt() != null) {
                count[0]++;
            }
        });
        return count[0];
    }

    /**
     * The earliest due bucket, read with one Scan instead of the sweeper's query per pipeline and shard: it only
     * decides whether a sweep can find anything, the sweep itself runs the handler's real queries.
     */
    private Optional<Instant> earliestDue() {
        return table().earliestDueBucket();
    }

    private WindowTableReader table() {
        return new WindowTableReader(endpoint.dynamoDb(), state.resources.tableName());
    }

    private long openWindowSlots() {
        long open = 0;
        for (PipelineConfig pipeline : config.pipelines()) {
            open += runtime.engine().ports().store().openWindows(pipeline.name());
        }
        return open;
    }

    static long ceilMinute(long millis) {
        return Math.floorDiv(millis + MINUTE - 1, MINUTE) * MINUTE;
    }

    // ------------------------------------------------------------------ steps

    private void ingest(long at, List<Delivery> members, Map<Delivery, Boolean> fromTrace) {
        advanceTo(at);
        List<Delivery> received = new ArrayList<>();
        for (Delivery d : members) {
            if (fromTrace.containsKey(d)) {
                state.cursor++;
            } else {
                state.inputs.remove(d);
            }
            Delivery r = d.received();
            if (r.receiveCount() > template.maxReceiveCount()) {
                redrive(r);
            } else {
                received.add(r);
            }
        }
        if (received.isEmpty()) {
            save();
            return;
        }
        // In flight: saved as still queued, so a process that dies now redelivers them on restart.
        state.inputs.addAll(received);
        state.count("messagesDelivered", received.size());
        save();
        SQSEvent event = sqsEvent(received, at);
        List<String> failed = new ArrayList<>();
        boolean completed = invoke("ingest", () -> {
            SQSBatchResponse response = new IngestFunction(runtime).handleRequest(event, context("fanin-ingest", 30));
            response.getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier()));
        });
        if (completed) {
            Set<String> failedIds = new HashSet<>(failed);
            SplittableRandom random = random("redeliver");
            for (Delivery r : received) {
                state.inputs.remove(r);
                if (failedIds.contains(r.messageId())) {
                    // A failed message comes back when its visibility timeout ends, as SQS hands it back.
                    state.inputs.add(r.visibleAt(outages.deferred(at + template.inputVisibilityTimeoutSeconds() * 1000L, r.messageId())));
                    state.count("messagesRetried", 1);
                } else if (!r.duplicate() && options.redeliver() > 0 && random.nextDouble() < options.redeliver()) {
                    long within = options.redeliverWithin().toMillis();
                    state.inputs.add(r.asDuplicate(outages.deferred(at + (within == 0 ? 0 : 1 + random.nextLong(within)), r.messageId())));
                    state.count("messagesRedelivered", 1);
                }
            }
        }
        drains.drainAll(clock.instant());
        save();
    }

    /** One timer invocation of {@code members}, a batch as the timer queue's event source forms it. */
    private void timers(long at, List<TimerDelivery> members) {
        advanceTo(at);
        List<TimerDelivery> due = new ArrayList<>();
        for (TimerDelivery t : members) {
            state.timers.remove(t);
            TimerDelivery r = t.received();
            if (r.receiveCount() > template.maxReceiveCount()) {
                state.count("timersDeadLettered", 1); // the timer queue's redrive; the sweeper backs every timer
            } else {
                due.add(r);
            }
        }
        state.timers.addAll(due);
        save();
        SQSEvent event = new SQSEvent();
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (TimerDelivery t : due) {
            records.add(message(t.messageId(), t.body(), Map.of(), at, t.receiveCount(), at, "TimerQueue"));
        }
        event.setRecords(records);
        List<String> failed = new ArrayList<>();
        boolean completed = invoke("timer", () -> new TimerFunction(runtime).handleRequest(event, context("fanin-timer", 30))
                .getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier())));
        if (completed) {
            for (TimerDelivery t : due) {
                state.timers.remove(t);
                if (failed.contains(t.messageId())) {
                    state.timers.add(t.visibleAt(at + RETRY_DELAY.toMillis()));
                }
            }
        }
        drains.drainAll(clock.instant());
        save();
    }

    private void sweep(long at) {
        advanceTo(at);
        save();
        boolean completed = invoke("sweeper", () -> new SweeperFunction(runtime).handleRequest(new ScheduledEvent(),
                context("fanin-sweeper", template.sweeperTimeoutSeconds())));
        if (completed) {
            state.lastSweepMillis = at;
        }
        drains.drainAll(clock.instant());
        save();
    }

    private void advanceTo(long at) {
        clock.advanceTo(Instant.ofEpochMilli(at));
        state.nowMillis = at;
    }

    /**
     * Runs one handler invocation, possibly killing it at a random AWS call ({@code --crash-rate}). After a crash the
     * runtime is thrown away and a new one built, as a new Lambda container would be.
     *
     * @return false when the invocation crashed: nothing it returned counts, its messages are redelivered
     */
    private boolean invoke(String function, Runnable call) {
        state.invocations++;
        state.count(function + "Invocations", 1);
        SplittableRandom random = random("crash");
        InvocationProbe probe = InvocationProbe.counting();
        if (options.crashRate() > 0 && random.nextDouble() < options.crashRate()) {
            int calls = Math.max(1, state.maxCalls.getOrDefault(function, 1));
            probe = InvocationProbe.crashingAt(1 + random.nextInt(calls), random.nextBoolean());
        }
        ReplayInterceptor.install(probe);
        try {
            call.run();
        } catch (SimulatedCrash expected) {
            // the invocation died at the chosen call; probe.crashed() says so below
        } finally {
            ReplayInterceptor.uninstall();
        }
        state.maxCalls.merge(function, probe.calls(), Math::max);
        if (probe.crashed()) {
            state.count("crashesInjected", 1);
            runtime = newRuntime();
            return false;
        }
        return true;
    }

    private SplittableRandom random(String purpose) {
        return new SplittableRandom(options.seed() * 1_000_003L + state.invocations * 31L + purpose.hashCode());
    }

    private void redrive(Delivery d) {
        endpoint.sqs().sendMessage(r -> r.queueUrl(state.resources.queueUrl("InputDeadLetterQueue")).messageBody(d.body())
                .messageAttributes(Map.of(
                        SqsDeadLetters.REASON_CODE_ATTRIBUTE, string("SQS_REDRIVE"),
                        SqsDeadLetters.REASON_ATTRIBUTE, string("SQS_REDRIVE: not handled in " + template.maxReceiveCount()
                                + " receives (the input queue's redrive policy)"),
                        SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE, string(d.messageId()))));
        state.count("messagesRedriven", 1);
    }

    private static software.amazon.awssdk.services.sqs.model.MessageAttributeValue string(String value) {
        return software.amazon.awssdk.services.sqs.model.MessageAttributeValue.builder().dataType("String")
                .stringValue(value).build();
    }

    private SQSEvent sqsEvent(List<Delivery> deliveries, long at) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (Delivery d : deliveries) {
            records.add(message(d.messageId(), d.body(), d.attributes(), d.sentAtMillis(), d.receiveCount(),
                    d.firstReceiveMillis(), "InputQueue"));
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        return event;
    }

    /** One record as the event source hands it over; the trace's attributes override all but the delivery facts. */
    private SQSEvent.SQSMessage message(String id, String body, Map<String, String> given, long sentAt, int receiveCount,
                                        long firstReceive, String queueLogicalId) {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("SentTimestamp", String.valueOf(sentAt));
        attributes.put("SenderId", "fanin-replay");
        attributes.putAll(given);
        attributes.put("ApproximateReceiveCount", String.valueOf(receiveCount));
        attributes.put("ApproximateFirstReceiveTimestamp", String.valueOf(firstReceive));
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId(id);
        m.setReceiptHandle("replay-" + id + "-" + receiveCount);
        m.setBody(body);
        m.setAttributes(attributes);
        m.setMessageAttributes(Collections.emptyMap());
        m.setEventSource("aws:sqs");
        m.setEventSourceArn("arn:aws:sqs:" + LocalAwsEndpoint.REGION.id() + ":123456789012:" + state.prefix + queueLogicalId);
        m.setAwsRegion(LocalAwsEndpoint.REGION.id());
        return m;
    }

    private InProcessContext context(String function, int timeoutSeconds) {
        return new InProcessContext(function, "replay-" + state.invocations, "replay", java.time.Duration.ofSeconds(timeoutSeconds), clock);
    }

    /** For tests: the runtime currently in use (a new one after each simulated crash). */
    Supplier<FaninRuntime> runtime() {
        return () -> runtime;
    }
}
