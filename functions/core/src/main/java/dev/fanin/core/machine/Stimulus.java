package dev.fanin.core.machine;

/**
 * What can happen to a window: each call of {@link WindowMachine} is one of these, and {@link TransitionTable} says
 * what each does in each status.
 */
public enum Stimulus {
    /** Events offered ({@link WindowMachine#ingest}) to a revision with room for them. */
    EVENTS,
    /**
     * Events offered to a revision without room for them all ({@code bounds.maxEventsPerWindow}, overflow SPLIT): the
     * full revision is cut and the rest counted in the next.
     */
    SIZE_LIMIT_SPLIT,
    /** A sweep or timer visit ({@link WindowMachine#tick}) that finds no claim whose lease has ended. */
    VISIT,
    /** A visit at or after a claim's lease end: another flusher takes the claim over. */
    TAKEOVER,
    /** The claimer's commit after its emission ({@link WindowMachine#commit}). */
    COMMIT,
    /** {@code fanin windows close} ({@link WindowMachine#closeByOperator}). */
    OPERATOR_CLOSE,
    /** A session merge: the survivor takes in a session a new event bridged to it ({@link WindowMachine#absorb}). */
    ABSORB,
    /** The key holds more live sessions than one item may: the oldest is cut short ({@link WindowMachine#cutShort}). */
    SESSION_LIMIT_CUT
}
