package dev.fanin.core.window;

/**
 * Why a window revision closed. When several triggers hold at the same decision, the reason recorded is the first of
 * {@code Triggers.PRECEDENCE} (not this declaration order); only one close is ever committed per window revision.
 * {@link #OPERATOR} is no trigger: it is an explicit decision that closes an open or
 * held window at once, and loses to any close claimed before it (docs/SEMANTICS.md, "Close triggers").
 */
public enum CloseReason {
    /** Every expected event (or member) has arrived. */
    EXPECTED_COMPLETE,
    /** The sentinel arrived and carried no expected count. */
    SENTINEL,
    /** The count threshold was reached. */
    COUNT,
    /** The watermark passed the window end (tumbling, sliding). */
    WATERMARK,
    /** The watermark passed the session's last event time plus the gap. */
    SESSION_GAP,
    /** The hard maximum lifetime in processing time ended. */
    HARD_LIFETIME,
    /** The revision reached the events-per-window bound (overflow policy SPLIT). */
    SIZE_LIMIT,
    /**
     * A session closed early because its key had more live sessions than one item holds (the oldest is closed first);
     * not a trigger, never complete unless the expected count was reached.
     */
    SESSION_LIMIT,
    /** A revision that corrects the previous one with late events. */
    LATE_CORRECTION,
    /** An operator closed the window ({@code fanin windows close}), with a note in the aggregate. */
    OPERATOR
}
