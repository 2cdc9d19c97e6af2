package dev.fanin.core.machine;

import dev.fanin.core.event.Event;

/**
 * What the machine did with one event offered to a window.
 *
 * @param detail  for TOO_LATE, what made it too late, with the figures (the side output's reason); else null
 * @param verdict for TOO_LATE, whether a later copy of the event, which its time brings to this window again, meets
 *                the verdict here (so that it is too late as well, never counted); NONE for every other disposition
 */
public record EventOutcome(Event event, Disposition disposition, String detail, Verdict verdict) {

    /** The reason of a copy that met an earlier copy's too-late verdict. */
    private static final String COPY_TOO_LATE = "a copy of the event delivered earlier was too late";

    public EventOutcome(Event event, Disposition disposition) {
        this(event, disposition, null, Verdict.NONE);
    }

    /** A copy of an event whose verdict was recorded before: too late again. */
    public static EventOutcome tooLateAgain(Event event) {
        return new EventOutcome(event, Disposition.TOO_LATE, COPY_TOO_LATE, Verdict.KEPT);
    }

    /** Whether the window's write records the verdict: a change that must be written. */
    public boolean recorded() {
        return verdict == Verdict.RECORDED;
    }

    /** Where a TOO_LATE verdict is kept for a later copy of the event. */
    public enum Verdict {
        /** Not too late. */
        NONE,
        /** The window's write records it (the event's digest, marked). */
        RECORDED,
        /** The window keeps it already: a record met. */
        KEPT,
        /**
         * Nowhere in this window: a session not stored, or whose bounds do not hold the event's time, so a later copy
         * would be planned elsewhere (its key keeps it then, {@code KeyVerdicts}).
         */
        UNKEPT
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
