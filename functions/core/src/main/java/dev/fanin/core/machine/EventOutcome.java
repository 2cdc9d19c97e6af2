package dev.fanin.core.machine;

import dev.fanin.core.event.Event;

/**
 * What the machine did with one event offered to a window.
 *
 * @param detail   for TOO_LATE, what made it too late, with the figures (the side output's reason); else null
 * @param recorded for TOO_LATE, whether the window's write records the verdict (so that a copy offered later is too
 *                 late as well, never counted)
 */
public record EventOutcome(Event event, Disposition disposition, String detail, boolean recorded) {

    public EventOutcome(Event event, Disposition disposition) {
        this(event, disposition, null, false);
    }

    public EventOutcome(Event event, Disposition disposition, String detail) {
        this(event, disposition, detail, false);
    }

    public enum Disposition {
        /** Counted in the revision being accumulated. */
        ACCEPTED,
        /** Counted in the revision being accumulated, though the watermark had passed the window end (within lateness). */
        ACCEPTED_LATE,
        /** Counted in a correction of an already emitted revision (within lateness). */
        CORRECTION,
        /** Its event id was already accepted by this window: suppressed. */
        DUPLICATE,
        /** Beyond the allowed lateness (or the window is final): goes to the late side output or is dropped. */
        TOO_LATE,
        /** The window is full and the overflow policy is SIDE_OUTPUT: goes to the side output. */
        WINDOW_FULL,
        /** Cannot be applied now (the window is full and splitting): the message is handed back to its input, to be delivered again. */
        RETRY;

        /** Whether the event is now counted in the window (so its message is done). */
        public boolean counted() {
            return this == ACCEPTED || this == ACCEPTED_LATE || this == CORRECTION;
        }
    }
}
