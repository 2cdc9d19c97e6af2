package dev.fanin.core.window;

import java.util.Objects;

/**
 * The identity of one window: pipeline, group key and window id. Stable for the window's whole life; sessions keep
 * the id they were created with even when they extend or absorb others.
 *
 * <p>Window ids: {@code T<start>} for tumbling and sliding windows ({@code start} in epoch milliseconds, the size is
 * the pipeline's; {@code T<start><end>} where a window of another size or offset, opened before a change of the
 * configuration, holds {@code T<start>}), {@code S<start>} for sessions (the event time of the event that opened the session). Ids are
 * zero-padded to 15 digits so that they sort by start time.
 */
public record WindowRef(String pipeline, String key, String windowId) {

    private static final String SESSION_PREFIX = "S";

    public WindowRef {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(windowId, "windowId");
    }

    /** The window id that stands for every window of a group key in a due bucket. */
    public static final String WHOLE_KEY = "*";

    /**
     * Every window of a group key, as a due bucket lists it for a session pipeline (whose window ids are known only
     * once the key is loaded).
     */
    public static WindowRef wholeKey(String pipeline, String key) {
        return new WindowRef(pipeline, key, WHOLE_KEY);
    }

    public boolean isWholeKey() {
        return WHOLE_KEY.equals(windowId);
    }

    /** Another window of the same pipeline and key. */
    public WindowRef withWindowId(String otherWindowId) {
        return new WindowRef(pipeline, key, otherWindowId);
    }

    /**
     * Whether this is a session (its id says so, {@link #sessionId}): a window's kind is fixed when it opens, so a
     * reader goes by the id, never by the kind its pipeline configures now.
     */
    public boolean isSession() {
        return windowId.startsWith(SESSION_PREFIX);
    }

    public static String timeWindowId(long startMillis) {
        return "T" + pad(startMillis);
    }

    /**
     * The id of a time window whose start's id ({@link #timeWindowId(long)}) a window of another shape holds: one opened
     * before the pipeline's size, slide or offset changed.
     */
    public static String timeWindowId(long startMillis, long endMillis) {
        return "T" + pad(startMillis) + pad(endMillis);
    }

    public static String sessionId(long openedByEventTimeMillis) {
        return SESSION_PREFIX + pad(openedByEventTimeMillis);
    }

    private static String pad(long millis) {
        // Event times before 1970 are rejected at intake, so millis >= 0 here.
        return String.format("%015d", millis);
    }

    /**
     * The aggregate id of a revision: stable across re-emissions, so consumers recognise a repeat. Contains no
     * separator ambiguity because each part is length-prefixed.
     */
    public String aggregateId(int revision) {
        return pipeline.length() + ":" + pipeline + "/" + key.length() + ":" + key + "/" + windowId + "/r" + revision;
    }
}
