package dev.fanin.core.window;

/**
 * The life of a window. Transitions are decided by the core and executed by the store under a version condition; the
 * picture is the common path, {@code dev.fanin.core.machine.TransitionTable} has every status meeting every stimulus.
 *
 * <pre>
 *   OPEN ──trigger──▶ CLAIMED ──commit──▶ CLOSED ──late event within lateness──▶ CLAIMED (next revision) ...
 *    │                   ▲  └─lease expired: taken over by a new fence
 *    └──incomplete, HOLD─▶ HELD ──complete or hard lifetime──┘
 *   OPEN ──absorbed by a bridging session──▶ MERGED (terminal, never emitted)
 * </pre>
 */
public enum WindowStatus {
    /** Accepting events; listed in a due bucket at or before its next time-based check. */
    OPEN,
    /** A time trigger fired on an incomplete window under the HOLD policy; still accepting events. */
    HELD,
    /** A revision is frozen and being emitted by the holder of the fence until its lease ends. */
    CLAIMED,
    /** The last claimed revision is committed; late events within lateness may start a correction. */
    CLOSED,
    /** A session absorbed into another; its events are counted in the survivor. */
    MERGED;

    /** Whether the window counts against the pipeline's open-window bound. */
    public boolean isOpen() {
        return this == OPEN || this == HELD || this == CLAIMED;
    }
}
