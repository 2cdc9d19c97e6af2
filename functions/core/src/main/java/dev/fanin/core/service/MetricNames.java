package dev.fanin.core.service;

/** Metric names; each is described, with what to do when its alarm fires, in docs/OPERATIONS.md. */
public final class MetricNames {

    public static final String EVENTS_ACCEPTED = "EventsAccepted";
    public static final String WINDOWS_OPENED = "WindowsOpened";
    public static final String WINDOWS_CLOSED = "WindowsClosed";
    public static final String PARTIAL_FIRES = "PartialFires";
    public static final String HELD_WINDOWS = "HeldWindows";
    public static final String OPEN_WINDOWS = "OpenWindows";
    public static final String OLDEST_OPEN_WINDOW_AGE = "OldestOpenWindowAgeSeconds";
    public static final String OVERDUE_WINDOWS = "OverdueWindows";
    public static final String SECONDS_PAST_HARD_DEADLINE = "SecondsPastHardDeadline";
    public static final String LATE_EVENTS = "LateEvents";
    public static final String DUPLICATE_EVENTS = "DuplicateEventsSuppressed";
    public static final String DUPLICATE_FLUSHES = "DuplicateFlushesSuppressed";
    public static final String EMIT_FAILURES = "EmitFailures";
    public static final String AGGREGATES_EMITTED = "AggregatesEmitted";
    public static final String WRITE_UNITS_PER_EVENT = "WriteUnitsPerEvent";
    public static final String WRITE_UNITS = "WriteUnits";
    public static final String ADMISSION_REFUSED = "AdmissionRefused";
    public static final String DEAD_LETTERED = "DeadLettered";
    /** Windows the HOLD policy dead-lettered at their hard deadline (also in {@link #DEAD_LETTERED}): a person decides. */
    public static final String WINDOWS_DEAD_LETTERED = "WindowsDeadLettered";
    public static final String IGNORED_MESSAGES = "IgnoredMessages";
    public static final String WINDOW_CONFLICTS = "WindowWriteConflicts";
    public static final String STORE_UNAVAILABLE = "StoreUnavailable";
    public static final String BATCH_READ_FALLBACKS = "BatchReadFallbacks";
    public static final String TAKEOVERS = "ClaimTakeovers";
    public static final String WINDOWS_SWEPT = "WindowsSwept";
    public static final String TIMERS_REARMED_ON_REDELIVERY = "TimersRearmedOnRedelivery";
    public static final String SESSIONS_CUT_SHORT = "SessionsCutShort";
    public static final String TOO_LATE_VERDICTS_DROPPED = "TooLateVerdictsDropped";

    private MetricNames() {
    }
}
