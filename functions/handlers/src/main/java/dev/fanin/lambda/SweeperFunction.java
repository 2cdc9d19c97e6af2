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
 * The scheduled backstop: sweeps due windows until {@link SweepDeadline} (the function's remaining time less a
 * margin) and returns what it did. A failure is logged, counted and rethrown, so that Lambda's own error metric
 * shows it; the next scheduled run resumes where this one stopped (a sweep is resumable and idempotent).
 */
public final class SweeperFunction implements RequestHandler<ScheduledEvent, Map<String, Object>> {

    private static final Logger LOG = LoggerFactory.getLogger(SweeperFunction.class);

    private final FaninRuntime runtime;

    public SweeperFunction() {
        this(FaninRuntime.fromEnvironment());
    }

    public SweeperFunction(FaninRuntime runtime) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
    }

    @Override
    public Map<String, Object> handleRequest(ScheduledEvent event, Context context) {
        long remaining = context == null ? 0 : context.getRemainingTimeInMillis();
        return Invocations.run(runtime, context, () -> sweep(Duration.ofMillis(remaining)));
    }

    private Map<String, Object> sweep(Duration remaining) {
        Instant now = runtime.engine().clock().instant();
        Instant deadline = SweepDeadline.of(now, remaining);
        SweepReport report;
        try {
            report = runtime.sweep().sweep(deadline);
        } catch (RuntimeException e) {
            LOG.error("sweep failed; the next scheduled run resumes it", e);
            runtime.metrics().record(FunctionMetricNames.INVOCATION_ERRORS, 1, Metrics.Unit.COUNT, Map.of("function", "sweeper"));
            throw e;
        }
        Map<String, Object> result = new LinkedHashMap<>();
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
