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
    /** Timer: a timer message that can never be valid (not a timer body, or a pipeline neither configured nor retired), logged and acked. */
    public static final String MALFORMED_TIMERS = "MalformedTimerMessages";
    /** Any function: a pipeline configuration document that failed validation; the last valid one stays in force. */
    public static final String CONFIG_REJECTED = "ConfigurationRejected";
    /** Any function: the pipeline configuration document could not be read (missing, denied, service down). */
    public static final String CONFIG_UNAVAILABLE = "ConfigurationUnavailable";
    /** Timer: timers handled (the window visited). */
    public static final String TIMERS_FIRED = "TimersFired";

    private FunctionMetricNames() {
    }
}
