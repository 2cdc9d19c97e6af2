package dev.fanin.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.aws.sqs.TimerMessage;
import dev.fanin.core.port.Metrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The timer function: each message of the timer queue names one window and when it falls due
 * ({@link TimerMessage}); the window is visited exactly as the sweeper would ({@link dev.fanin.core.service.TimerService}).
 *
 * <p>A failure to visit (the store unavailable, throttling) fails that message only, so SQS redelivers it. A
 * malformed timer (not a timer body, or a pipeline the configuration no longer has) can never become valid by
 * retrying: it is logged, counted ({@value FunctionMetricNames#MALFORMED_TIMERS}) and acknowledged. Losing a timer
 * is harmless: the sweeper visits every due window.
 */
public final class TimerFunction implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = LoggerFactory.getLogger(TimerFunction.class);
    private static final Map<String, String> FUNCTION = Map.of("function", "timer");

    private final FaninRuntime runtime;

    public TimerFunction() {
        this(FaninRuntime.fromEnvironment());
    }

    public TimerFunction(FaninRuntime runtime) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        return Invocations.run(runtime, context, () -> handle(event));
    }

    private SQSBatchResponse handle(SQSEvent event) {
        List<SQSEvent.SQSMessage> records = event == null || event.getRecords() == null ? List.of() : event.getRecords();
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (SQSEvent.SQSMessage message : records) {
            MDC.put("messageId", message.getMessageId());
            try {
                if (!fire(message)) {
                    failures.add(SQSBatchResponse.BatchItemFailure.builder().withItemIdentifier(message.getMessageId()).build());
                }
            } finally {
                MDC.remove("messageId");
            }
        }
        if (!failures.isEmpty()) {
            runtime.metrics().record(FunctionMetricNames.MESSAGES_RETRIED, failures.size(), Metrics.Unit.COUNT, FUNCTION);
        }
        return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
    }

    /** @return false when the message must be redelivered */
    private boolean fire(SQSEvent.SQSMessage message) {
        TimerMessage timer;
        try {
            timer = TimerMessage.parse(message.getBody() == null ? "" : message.getBody());
        } catch (IllegalArgumentException e) {
            malformed(e.getMessage());
            return true;
        }
        String pipeline = timer.ref().pipeline();
        if (runtime.engine().config().pipelines().stream().noneMatch(p -> p.name().equals(pipeline))) {
            malformed("timer names pipeline \"" + pipeline + "\", which the configuration does not have");
            return true;
        }
        MDC.put("pipeline", pipeline);
        MDC.put("key", timer.ref().key());
        MDC.put("windowId", timer.ref().windowId());
        try {
            runtime.timers().fire(timer.ref(), timer.dueAt());
            runtime.metrics().record(FunctionMetricNames.TIMERS_FIRED, 1, Metrics.Unit.COUNT, Map.of("pipeline", pipeline));
            return true;
        } catch (RuntimeException e) {
            LOG.warn("timer not handled, it will be redelivered: {}", e.toString(), e);
            return false;
        } finally {
            MDC.remove("pipeline");
            MDC.remove("key");
            MDC.remove("windowId");
        }
    }

    private void malformed(String reason) {
        LOG.warn("malformed timer message acknowledged without effect: {}", reason);
        runtime.metrics().record(FunctionMetricNames.MALFORMED_TIMERS, 1, Metrics.Unit.COUNT, FUNCTION);
    }
}
