package dev.fanin.core.config;

/**
 * What a time-based trigger does to a window that is not complete. Only meaningful for pipelines that know
 * completeness (expected count or sentinel); for the others every close by event time is complete.
 *
 * @param mode       the policy
 * @param atDeadline for {@link Mode#HOLD}: what happens when the hard lifetime ends with the window still incomplete
 */
public record IncompletePolicy(Mode mode, AtDeadline atDeadline) {

    public enum Mode {
        /** Fire with {@code complete=false} and what is missing; later events within lateness produce corrections. */
        FIRE_PARTIAL,
        /** Fire with {@code complete=false}, then fire corrections as missing events arrive, until complete or final. */
        FIRE_AND_RECONCILE,
        /** Keep the window open and raise the held-window metric until complete or until the hard lifetime. */
        HOLD
    }

    public enum AtDeadline {
        /** Fire with {@code complete=false}, reason {@code HARD_LIFETIME}. */
        FIRE_FLAGGED,
        /** Do not fire: send the window's aggregate to the dead-letter side output and close it. */
        DEAD_LETTER
    }
}
