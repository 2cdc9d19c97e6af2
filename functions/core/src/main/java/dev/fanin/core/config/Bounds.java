package dev.fanin.core.config;

/**
 * State bounds.
 *
 * @param maxEventsPerWindow distinct events one window revision may hold before {@code onOverflow} applies
 * @param maxOpenWindows     windows open at once in this pipeline; new windows beyond it are refused and retried
 * @param maxKeyLength       longest group key accepted, in UTF-8 bytes
 * @param maxPayloadBytes    largest unwrapped payload accepted, in UTF-8 bytes
 * @param onOverflow         what a full window does
 */
public record Bounds(int maxEventsPerWindow, int maxOpenWindows, int maxKeyLength, int maxPayloadBytes, Overflow onOverflow) {

    public enum Overflow {
        /** Close the current revision with reason SIZE_LIMIT and continue the window in a new revision. */
        SPLIT,
        /** Keep the window as it is and send further events to the side output with reason WINDOW_FULL. */
        SIDE_OUTPUT
    }
}
