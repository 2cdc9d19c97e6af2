package dev.fanin.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.aws.sqs.TimerMessage;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.text.SinkText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The timer function: each message of the timer queue names one window and when it falls due
 * ({@link TimerMessage}); the window is visited exactly as the sweeper would ({@link dev.fanin.core.service.TimerService}).
 *
 * <p>The batch is handled as one invocation of {@link dev.fanin.core.service.TimerService#fireAll}: every window is
 * visited, then one flush emits all the claims and returns the open-window slots once. A failure to visit (the store
 * unavailable, throttling) fails that message only, so SQS redelivers it; a failure of the flush fails the batch. A
 * malformed timer (not a timer body, or a pipeline the configuration no longer has) can never become valid by
 * retrying: it is logged, counted ({@value FunctionMetricNames#MALFORMED_TIMERS}) and acknowledged. A timer of a
 * pipeline removed from the configuration is not malformed: its window is visited under the pipeline's last
 * definition ({@link dev.fanin.core.service.FaninEngine#retired()}). Losing a timer is harmless: the sweeper visits
 * every due window.
 */
public final class TimerFunction implements RequestHandler<SQSEvent, SQSBatchResponse> {

    /** The most of a malformed message's body its log line carries. */
    static final int LOGGED_BODY_BYTES = 4_096;

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
        List<WindowTimers.Wakeup> timers = new ArrayList<>();
        List<String> messageIds = new ArrayList<>();
        for (SQSEvent.SQSMessage message : records) {
            WindowTimers.Wakeup timer = parse(message);
            if (timer != null) {
                timers.add(timer);
                messageIds.add(message.getMessageId());
            }
        }
        List<String> failed = new ArrayList<>();
        if (!timers.isEmpty()) {
            try {
                // One invocation for the batch: one flush emits every claim and returns the open-window slots once.
                Set<WindowTimers.Wakeup> retry = new HashSet<>(runtime.timers().fireAll(timers));
                for (int i = 0; i < timers.size(); i++) {
                    if (retry.contains(timers.get(i))) {
                        failed.add(messageIds.get(i));
                    } else {
                        runtime.metrics().record(FunctionMetricNames.TIMERS_FIRED, 1, Metrics.Unit.COUNT,
                                Map.of("pipeline", timers.get(i).ref().pipeline()));
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("timer batch not handled, its {} timers will be redelivered: {}", timers.size(), e.toString(), e);
                failed.addAll(messageIds);
            }
        }
        if (!failed.isEmpty()) {
            runtime.metrics().record(FunctionMetricNames.MESSAGES_RETRIED, failed.size(), Metrics.Unit.COUNT, FUNCTION);
        }
        return SQSBatchResponse.builder().withBatchItemFailures(failed.stream()
                .map(id -> SQSBatchResponse.BatchItemFailure.builder().withItemIdentifier(id).build())
                .toList()).build();
    }

    /** The timer a message carries, or null for a malformed one (logged, counted and acknowledged). */
    private WindowTimers.Wakeup parse(SQSEvent.SQSMessage message) {
        TimerMessage timer;
        try {
            timer = TimerMessage.parse(message.getBody() == null ? "" : message.getBody());
        } catch (IllegalArgumentException e) {
            malformed(message, e.getMessage());
            return null;
        }
        String pipeline = timer.wakeup().ref().pipeline();
        if (!runtime.engine().knows(pipeline)) {
            malformed(message, "timer names pipeline \"" + pipeline + "\", which neither the configuration"
                    + " nor the pipelines retired from it have");
            return null;
        }
        return timer.wakeup();
    }

    /** Logged with its body (cut to {@value #LOGGED_BODY_BYTES} bytes), so that a message put here by mistake is not lost. */
    private void malformed(SQSEvent.SQSMessage message, String reason) {
        MDC.put("messageId", message.getMessageId());
        try {
            String body = message.getBody() == null ? "" : message.getBody();
            LOG.warn("malformed timer message acknowledged without effect: {}; its body ({} characters): {}", reason, body.length(),
                    SinkText.cutToBytes(body, LOGGED_BODY_BYTES));
        } finally {
            MDC.remove("messageId");
        }
        runtime.metrics().record(FunctionMetricNames.MALFORMED_TIMERS, 1, Metrics.Unit.COUNT, FUNCTION);
    }
}
