package dev.fanin.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.service.SweepReport;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduled backstop: sweeps due windows until {@link InvocationDeadline} (the function's remaining time less a
 * margin) and returns what it did. A scheduled event whose detail says {@code "shards": "every"} (the template's
 * hourly schedule) sweeps every shard a deployment could have written, not only the configured ones. A failure is
 * logged, counted and rethrown, so that Lambda's own error metric shows it; the next scheduled run resumes where this
 * one stopped (a sweep is resumable and idempotent).
 */
public final class SweeperFunction implements RequestHandler<ScheduledEvent, Map<String, Object>> {

    private static final Logger LOG = LoggerFactory.getLogger(SweeperFunction.class);

    /** The scheduled event's detail field, and its one value: sweep every shard. */
    static final String SHARDS = "shards";
    static final String EVERY = "every";

    private final FaninRuntime runtime;

    public SweeperFunction() {
        this(FaninRuntime.fromEnvironment());
    }

    public SweeperFunction(FaninRuntime runtime) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
    }

    @Override
    public Map<String, Object> handleRequest(ScheduledEvent event, Context context) {
        return Invocations.run(runtime, context, () -> sweep(event, context));
    }

    /** Whether the schedule asked for every shard; a value it cannot mean is the schedule's mistake, said so. */
    static boolean everyShard(ScheduledEvent event) {
        Object shards = event == null || event.getDetail() == null ? null : event.getDetail().get(SHARDS);
        if (shards == null) {
            return false;
        }
        if (!EVERY.equals(shards)) {
            throw new IllegalArgumentException("scheduled event detail." + SHARDS + " is \"" + shards
                    + "\"; the sweeper knows only \"" + EVERY + "\" (or no " + SHARDS + ": the configured shards)");
        }
        return true;
    }

    private Map<String, Object> sweep(ScheduledEvent event, Context context) {
        Instant now = runtime.engine().clock().instant();
        // The time left once the configuration is up to date (the refresh may have taken some).
        Instant deadline = InvocationDeadline.of(now, Duration.ofMillis(context == null ? 0 : context.getRemainingTimeInMillis()));
        boolean everyShard = false;
        SweepReport report;
        try {
            everyShard = everyShard(event);
            report = everyShard ? runtime.sweep().sweepEveryShard(deadline) : runtime.sweep().sweep(deadline);
        } catch (RuntimeException e) {
            LOG.error("sweep failed; the next scheduled run resumes it", e);
            runtime.metrics().record(FunctionMetricNames.INVOCATION_ERRORS, 1, Metrics.Unit.COUNT, Map.of("function", "sweeper"));
            throw e;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("shards", everyShard ? EVERY : "configured");
        result.put("visited", report.visited());
        result.put("claimed", report.claimed());
        result.put("overdue", report.overdue());
        result.put("oldestOpenAgeSeconds", report.oldestOpenAgeSeconds());
        result.put("secondsPastHardDeadline", report.secondsPastHardDeadline());
        result.put("exhausted", report.exhausted());
        result.put("deadline", deadline.toString());
        LOG.info("sweep done: {}", result);
        return result;
    }
}
