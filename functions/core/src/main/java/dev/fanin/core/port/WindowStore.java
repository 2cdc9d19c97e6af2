package dev.fanin.core.port;

import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where window state lives. Every write is conditional; a failed condition is returned, never thrown. Reads are
 * strongly consistent except {@link #due}, which reads an eventually consistent index: callers re-load a due window
 * before acting on it.
 *
 * <p>Transient failures (throttling, timeouts) are thrown as {@link StoreUnavailableException} so that the caller
 * can fail exactly the affected messages.
 */
public interface WindowStore {

    /** Loads one window with all its event ids, or empty. */
    Optional<StoredWindow> load(WindowRef ref);

    /** Loads every window of a group key (for sessions, which must see their neighbours), oldest first. */
    List<StoredWindow> loadKey(String pipeline, String key);

    /**
     * Creates a window ({@code window.version()} must be 0) if no window with its ref exists, and admits it against
     * the pipeline's open-window bound in the same atomic step.
     */
    WriteOutcome create(StoredWindow window, int maxOpenWindows);

    /**
     * Replaces {@code previous} (as loaded) by {@code next} if the stored version is still
     * {@code previous.version()}, storing {@code previous.version() + 1}. When the window leaves the open set
     * ({@code previous.status().isOpen() && !next.status().isOpen()}, see
     * {@link dev.fanin.core.window.WindowStatus#isOpen()}) the pipeline's open-window count is decremented in the
     * same atomic step.
     */
    WriteOutcome replace(StoredWindow previous, StoredWindow next);

    /**
     * Replaces several windows of one key atomically (a session absorbing its neighbours), each conditional on its
     * own loaded version; all or nothing. {@code previous.get(i)} pairs with {@code next.get(i)}.
     */
    WriteOutcome replaceAll(List<StoredWindow> previous, List<StoredWindow> next);

    /** Up to {@code limit} windows of one due-index shard whose due time is at or before {@code dueBy}, earliest first. */
    DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor);

    /** Number of due-index shards per pipeline. */
    int dueShards();

    /** The pipeline's count of open windows, as the admission counter holds it. */
    long openWindows(String pipeline);

    /** A page of due windows: refs with the due time the index held, and a cursor for the next page (null at the end). */
    record DuePage(List<DueEntry> entries, String cursor) { }

    record DueEntry(WindowRef ref, Instant dueAt) { }
}
