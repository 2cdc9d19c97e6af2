package dev.fanin.cli.local;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.fanin.aws.dynamodb.WindowTableReader;
import dev.fanin.lambda.FaninRuntime;
import dev.fanin.lambda.InProcessContext;
import dev.fanin.lambda.IngestFunction;
import dev.fanin.lambda.SweeperFunction;
import dev.fanin.lambda.TimerFunction;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.LocalResources;
import dev.fanin.testkit.TemplateResources;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * One {@code fanin local} run: resources from the template on the endpoint, the three functions driven the way the
 * Lambda service drives them, the traffic played, and the live view until everything settled or the wait ends.
 */
final class LocalRun {

    /** How the run ended, and whether everything expected happened. */
    record Outcome(boolean settled, List<String> missing, List<Seen.Window> overdue) {
        boolean succeeded() {
            return missing.isEmpty() && overdue.isEmpty();
        }
    }

    private static final Duration POLL = Duration.ofSeconds(1);

    private final LocalOptions options;
    private final LocalAwsEndpoint endpoint;
    private final PrintStream out;
    private final boolean terminal;
    private final Clock clock = Clock.systemUTC();

    LocalRun(LocalOptions options, LocalAwsEndpoint endpoint, PrintStream out, boolean terminal) {
        this.options = options;
        this.endpoint = endpoint;
        this.out = out;
        this.terminal = terminal;
    }

    Outcome run(Traffic traffic, String runId) {
        LiveView view = new LiveView(out, terminal, clock);
        FunctionSettingsFromTemplate functions = FunctionSettingsFromTemplate.read(options.repository().template());
        String prefix = "fanin-local-" + runId + "-";
        view.note("fanin local: " + endpoint.kind() + " at " + endpoint.endpoint());
        LocalResources resources = TemplateResources.load(options.repository().template()).createOn(endpoint, prefix);
        view.note("  resources from template.yaml: table " + resources.tableName() + ", queues "
                + String.join(", ", resources.queueUrls().keySet()) + ", bus " + resources.busName() + " (prefix " + prefix + ")");

        FaninRuntime runtime = FaninRuntime.create(environment(resources), clock);
        view.note("  pipelines: " + String.join(", ", runtime.engine().config().pipelines().stream().map(p -> p.name()).toList())
                + (options.config().isPresent() ? " (from " + options.config().get() + ")" : " (bundled)"));
        view.note("  function logs (JSON, as CloudWatch would hold them): " + options.functionLog());

        SqsClient sqs = endpoint.sqs();
        String inputQueue = resources.queueUrl("InputQueue");
        try (SqsEventSource ingest = new SqsEventSource(sqs, inputQueue, functions.ingest(), new IngestFunction(runtime), view, clock).start();
             SqsEventSource timers = new SqsEventSource(sqs, resources.queueUrl("TimerQueue"), functions.timer(), new TimerFunction(runtime), view, clock).start()) {
            view.note(describe(functions.ingest(), ingest) + "\n" + describe(functions.timer(), timers));
            view.note("  sweeper: every " + options.sweepEvery().toSeconds() + "s here (--sweep-every); in AWS "
                    + FunctionSettingsFromTemplate.describeSchedule(functions.sweepSchedule()) + " (SweepSchedule in template.yaml)");
            view.note("  until every window has closed or waits past --max-wait " + options.maxWait().toSeconds() + "s\n");

            ScheduledExecutorService schedule = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "fanin-local-schedule");
                t.setDaemon(true);
                return t;
            });
            AtomicInteger sweeps = new AtomicInteger();
            SweeperFunction sweeper = new SweeperFunction(runtime);
            schedule.scheduleWithFixedDelay(() -> sweep(sweeper, functions, view, sweeps),
                    options.sweepEvery().toMillis(), options.sweepEvery().toMillis(), TimeUnit.MILLISECONDS);
            try {
                RunWatcher watcher = new RunWatcher(sqs, new WindowTableReader(endpoint.dynamoDb(), resources.tableName()),
                        runtime.engine()::decode, resources.tapQueueUrl(), resources.queueUrl("LateEventsQueue"),
                        resources.queueUrl("InputDeadLetterQueue"), view);
                return play(traffic, sqs, inputQueue, watcher, view, sweeps);
            } finally {
                schedule.shutdownNow();
            }
        }
    }

    private Outcome play(Traffic traffic, SqsClient sqs, String inputQueue, RunWatcher watcher, LiveView view,
                         AtomicInteger sweeps) {
        Instant start = clock.instant();
        Instant end = start.plus(options.maxWait());
        AtomicInteger sent = new AtomicInteger();
        // The timed traffic goes from its own thread, so that reading the queues and the table never delays a send.
        Thread player = new Thread(() -> {
            try {
                for (Send send : traffic.timed()) {
                    Duration wait = Duration.between(clock.instant(), start.plus(send.at()));
                    if (!wait.isNegative() && !wait.isZero()) {
                        sleep(wait);
                    }
                    send(sqs, inputQueue, send, view);
                    sent.incrementAndGet();
                }
            } catch (IllegalStateException stopped) {
                // --max-wait ended the run before the traffic did: the rest is not sent.
            }
        }, "fanin-local-traffic");
        player.setDaemon(true);
        player.start();
        Set<Traffic.FollowUp> followedUp = new HashSet<>();
        boolean settled = false;
        while (true) {
            boolean allTimedSent = !player.isAlive();
            // The queue is read before the windows: a message the poller handles in between then shows in the windows.
            int pending = watcher.pending(inputQueue);
            watcher.poll();
            boolean followedUpNow = false;
            for (Traffic.FollowUp f : traffic.followUps()) {
                if (!followedUp.contains(f) && ready(f, watcher)) {
                    followedUp.add(f);
                    send(sqs, inputQueue, f.send(), view);
                    sent.incrementAndGet();
                    followedUpNow = true;
                }
            }
            view.status(status(watcher, sent.get(), traffic, view, sweeps.get()));
            // The windows just polled predate a follow-up sent now: judge quiet only on state read after every send.
            if (allTimedSent && !followedUpNow && quiet(watcher, pending, end)) {
                settled = true;
                break;
            }
            if (!clock.instant().isBefore(end)) {
                break;
            }
            sleep(POLL);
        }
        player.interrupt();
        view.endStatus();
        Outcome outcome = new Outcome(settled, missing(traffic, watcher), overdue(watcher));
        Summary.print(out, outcome, watcher, sent.get(), view.batches(), sweeps.get(), options.maxWait());
        return outcome;
    }

    /**
     * A follow-up goes once its window has fired and its pipeline has no window left open: a late event resets the
     * pipeline's idle watermark advance, so sending it while a sibling window still waits for that advance would
     * only delay the sibling.
     */
    private static boolean ready(Traffic.FollowUp f, RunWatcher watcher) {
        boolean fired = watcher.aggregates().stream().anyMatch(a -> a.pipeline().equals(f.pipeline()) && a.key().contains(f.keyPart()));
        boolean othersOpen = watcher.windows().stream()
                .anyMatch(w -> w.pipeline().equals(f.pipeline()) && (w.status().equals("OPEN") || w.status().equals("CLAIMED")));
        return fired && !othersOpen;
    }

    /**
     * Nothing left that could happen before {@code end}: the input drained ({@code pending}, read before the windows
     * were polled), nothing claimed, nothing due before it.
     */
    private static boolean quiet(RunWatcher watcher, int pending, Instant end) {
        if (pending > 0) {
            return false;
        }
        return watcher.windows().stream().noneMatch(w -> w.status().equals("CLAIMED") || (w.due() != null && !w.due().isAfter(end)));
    }

    private List<String> missing(Traffic traffic, RunWatcher watcher) {
        List<String> missing = new ArrayList<>();
        for (Traffic.Expectation e : traffic.expectations()) {
            boolean met = e.deadLetter()
                    ? !watcher.deadLetters().isEmpty()
                    : watcher.aggregates().stream().anyMatch(a -> (e.pipeline() == null || a.pipeline().equals(e.pipeline()))
                            && (e.closeReason() == null || a.closeReason().equals(e.closeReason())));
            if (!met) {
                missing.add(e.description());
            }
        }
        return missing;
    }

    /**
     * Windows still open a sweep after their hard deadline, which every window closes by at the latest. Not those
     * whose next check has passed: a visit that finds a window not due yet (its watermark still short of its end, as
     * for a day's window just after midnight, until the idle advance) leaves the stored check early, without a write.
     */
    private List<Seen.Window> overdue(RunWatcher watcher) {
        return overdue(watcher.windows(), clock.instant().minus(options.sweepEvery()).minus(POLL));
    }

    static List<Seen.Window> overdue(List<Seen.Window> windows, Instant sweptBy) {
        return windows.stream()
                .filter(Seen.Window::isOpen)
                .filter(w -> w.hardDeadline() != null && w.hardDeadline().isBefore(sweptBy)).toList();
    }

    private Map<String, String> environment(LocalResources resources) {
        Map<String, String> env = new HashMap<>(resources.functionEnvironment());
        env.put("AWS_ENDPOINT_URL", endpoint.endpoint().toString());
        env.put("AWS_REGION", LocalAwsEndpoint.REGION.id());
        env.put("AWS_ACCESS_KEY_ID", "fanin-local");
        env.put("AWS_SECRET_ACCESS_KEY", "fanin-local");
        options.config().ifPresent(file -> env.put("FANIN_CONFIG", "file:" + file.toAbsolutePath()));
        return env;
    }

    private static String describe(FunctionSettingsFromTemplate.EventSource s, SqsEventSource source) {
        return "  " + s.function() + ": polls its queue like Lambda: batch size " + s.batchSize() + ", batching window "
                + s.maxBatchingWindow().toSeconds() + "s, visibility timeout " + source.visibilityTimeout().toSeconds()
                + "s, partial batch failures (template.yaml); one invocation at a time here";
    }

    private void sweep(SweeperFunction sweeper, FunctionSettingsFromTemplate functions, LiveView view, AtomicInteger sweeps) {
        try {
            ScheduledEvent event = new ScheduledEvent();
            event.setSource("aws.events");
            event.setDetailType("Scheduled Event");
            event.setTime(new org.joda.time.DateTime(clock.millis()));
            Map<String, Object> report = sweeper.handleRequest(event, new InProcessContext("SweeperFunction", java.util.UUID.randomUUID().toString(), "local", functions.sweepTimeout(), clock));
            sweeps.incrementAndGet();
            Object claimed = report.get("claimed");
            if (claimed instanceof Number n && n.intValue() > 0) {
                view.line("SWEEP", "the sweeper closed " + n + " due window" + (n.intValue() == 1 ? "" : "s") + " (visited " + report.get("visited") + ")");
            }
        } catch (RuntimeException e) {
            view.line("SWEEP", "the sweep failed (the next one resumes it): " + e);
        }
    }

    private void send(SqsClient sqs, String queueUrl, Send send, LiveView view) {
        sqs.sendMessage(r -> r.queueUrl(queueUrl).messageBody(send.body()));
        view.line("SENT", send.what());
    }

    private String status(RunWatcher watcher, int sent, Traffic traffic, LiveView view, int sweeps) {
        long open = watcher.windows().stream().filter(Seen.Window::isOpen).count();
        return "sent " + sent + "/" + (traffic.timed().size() + traffic.followUps().size()) + " · open windows " + open
                + " · fired " + watcher.aggregates().size() + " · side output " + watcher.sideRecords().size()
                + " · dead letters " + watcher.deadLetters().size() + " · batches " + view.batches() + " · sweeps " + sweeps;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(Math.max(1, d.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static Path defaultLogFile(String runId) {
        return Path.of(System.getProperty("java.io.tmpdir"), "fanin-local-" + runId + "-functions.log");
    }
}
