package dev.fanin.core.port;

/**
 * The result of a conditional write. A failed condition is an outcome, not an error: the caller re-reads and
 * decides again.
 *
 * @param applied    whether the write happened
 * @param writeUnits write capacity units the write consumed, as reported by the store (0 if unknown)
 * @param reason     for a write not applied: {@link Rejection}
 */
public record WriteOutcome(boolean applied, double writeUnits, Rejection reason) {

    public enum Rejection {
        /** Someone else wrote the window since it was read (version or fence moved). */
        CONFLICT,
        /** Creating the window would exceed the pipeline's open-window bound. */
        OPEN_WINDOW_BOUND,
        /** The item would pass what the store holds in one item (DynamoDB: 400 KB); nothing was sent. */
        TOO_LARGE
    }

    public static WriteOutcome applied(double writeUnits) {
        return new WriteOutcome(true, writeUnits, null);
    }

    public static WriteOutcome rejected(Rejection reason, double writeUnits) {
        return new WriteOutcome(false, writeUnits, reason);
    }
}
