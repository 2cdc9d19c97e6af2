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
     * Creates a window ({@code window.version()} must be 0) if no window with its ref exists. Admission against the
     * open-window bound is separate: the caller holds a slot from {@link #reserveSlots} first.
     */
    WriteOutcome create(StoredWindow window);

    /**
     * Replaces {@code previous} (as loaded) by {@code next} if the stored version is still
     * {@code previous.version()}, storing {@code previous.version() + 1}.
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

    /**
     * Reserves up to {@code wanted} of the pipeline's open-window slots for windows created in admission epoch
     * {@code epoch}, never letting the slots held pass {@code maxOpenWindows}. One conditional counter update for
     * any number of slots.
     *
     * @return slots granted, from 0 (the bound is reached) to {@code wanted}
     */
    int reserveSlots(String pipeline, long epoch, int wanted, int maxOpenWindows);

    /**
     * Returns {@code count} slots reserved in {@code epoch} (windows that closed, or reservations not used). Does
     * nothing when the epoch is already retired: its slots came back then.
     */
    void releaseSlots(String pipeline, long epoch, int count);

    /**
     * Retires every admission epoch before {@code before}: the slots still held there, which only a crash between a
     * window write and its counter update can leave behind, return to the pool.
     *
     * @return slots returned
     */
    long retireEpochs(String pipeline, long before);

    /** Slots the pipeline holds: its open windows, plus any left behind by a crash until their epoch retires. */
    long openWindows(String pipeline);

    /** A page of due windows: refs with the due time the index held, and a cursor for the next page (null at the end). */
    record DuePage(List<DueEntry> entries, String cursor) { }

    record DueEntry(WindowRef ref, Instant dueAt) { }
}
