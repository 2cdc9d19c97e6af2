package dev.fanin.lambda;

/**
 * Metrics the functions themselves emit, beside the core's {@link dev.fanin.core.service.MetricNames}. Each is
 * described in docs/OPERATIONS.md.
 */
public final class FunctionMetricNames {

    /** Ingest and timer: messages handed back to SQS for redelivery (batch item failures). */
    public static final String MESSAGES_RETRIED = "MessagesRetried";
    /** Any function: an invocation that failed as a whole (every message of the batch retried, or a sweep error). */
    public static final String INVOCATION_ERRORS = "InvocationErrors";
    /** Timer: a timer message that can never be valid (not a timer body, or an unknown pipeline), logged and acked. */
    public static final String MALFORMED_TIMERS = "MalformedTimerMessages";
    /** Timer: timers handled (the window visited). */
    public static final String TIMERS_FIRED = "TimersFired";

    private FunctionMetricNames() {
    }
}
