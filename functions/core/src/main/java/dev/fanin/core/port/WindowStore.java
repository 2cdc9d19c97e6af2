package dev.fanin.core.port;

import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where window state lives. Every window write is conditional; a failed condition is returned, never thrown. Window
 * reads are strongly consistent.
 *
 * <p>The sweeper finds windows through <em>due buckets</em>: items that list windows (or whole group keys) to visit
 * once the bucket's time has passed. A bucket is written before the window writes it covers and deleted only after the
 * sweeper has visited its entries and listed again those still open, so every window with a due time is listed by
 * some bucket at all times. Listings may be early, duplicated or stale (a closed window, a window never created): a
 * visit re-reads the window and decides afresh.
 *
 * <p>Transient failures (throttling, timeouts) are thrown as {@link StoreUnavailableException} so that the caller
 * can fail exactly the affected messages.
 */
public interface WindowStore {

    /**
     * Loads one window with all its event ids, or empty. For a session pipeline, this is the item of a session once it
     * is committed; the live sessions of a key are loaded with {@link #loadLive}.
     */
    Optional<StoredWindow> load(WindowRef ref);

    /**
     * The key's live sessions, each with all its event ids, strongly consistent; {@link LiveSessions#none} at version 0
     * when nothing is stored for the key.
     */
    LiveSessions loadLive(String pipeline, String key);

    /**
     * Each of {@code refs} as {@link #load} reads it (empty when absent), in as few requests as the store can make: an
     * ingest batch reads all its windows up front. A ref missing from the result was not read (the caller loads it on
     * its own); the default reads them one by one.
     */
    default Map<WindowRef, Optional<StoredWindow>> loadAll(List<WindowRef> refs) {
        Map<WindowRef, Optional<StoredWindow>> loaded = new LinkedHashMap<>();
        refs.forEach(ref -> loaded.put(ref, load(ref)));
        return loaded;
    }

    /**
     * The live sessions of each of {@code keys} as {@link #loadLive} reads them, in as few requests as the store can
     * make. A key missing from the result was not read (the caller loads it on its own); the default reads them one by
     * one.
     */
    default Map<String, LiveSessions> loadLiveAll(String pipeline, List<String> keys) {
        Map<String, LiveSessions> loaded = new LinkedHashMap<>();
        keys.forEach(key -> loaded.put(key, loadLive(pipeline, key)));
        return loaded;
    }

    /**
     * Replaces the key's live sessions by {@code next} if they are still at {@code previous.version()} (or, at version
     * 0, still absent), storing {@code previous.version() + 1}; refused, nothing written, as
     * {@link WriteOutcome.Rejection#TOO_LARGE} when they would pass what one item holds.
     */
    WriteOutcome replaceLive(LiveSessions previous, LiveSessions next);

    /**
     * The committed sessions of a key whose bounds may overlap {@code [fromMillis, toMillis)}, each with all its event
     * ids, found by their ids ({@code S<time of the event that opened it>}): the first session whose id is at or after
     * {@code S<toMillis>}, then every one whose id is before it, latest first, down to and including the latest whose
     * id is at or before {@code S<fromMillis>}. Committed sessions never overlap and each id lies inside its own
     * session, so ids are in the order of the sessions: no earlier one can reach {@code fromMillis}, and of the later
     * ones only the first can, because a session grown to events before the one that opened it starts before its id.
     * May include a copy of a session that is still live (its committer's, before it left the live item): the live
     * copy is authoritative.
     */
    List<StoredWindow> closedSessions(String pipeline, String key, long fromMillis, long toMillis);

    /**
     * Creates a window if no window with its ref exists, storing {@code window.version() + 1}: 0 for a new window; a
     * session's committer passes the live version its commit was decided at, so the session's versions (and the
     * timer chains named after them) keep rising. Admission against the open-window bound is separate: the caller
     * holds a slot from {@link #reserveSlots} first.
     */
    WriteOutcome create(StoredWindow window);

    /**
     * Replaces {@code previous} (as loaded) by {@code next} if the stored version is still
     * {@code previous.version()}, storing {@code previous.version() + 1}.
     */
    WriteOutcome replace(StoredWindow previous, StoredWindow next);

    /**
     * Lists {@code entries} in a new due bucket at {@code dueAt} (one item, or several for a long list). Entries may be
     * windows or whole group keys ({@link WindowRef#wholeKey}).
     *
     * @param expiresAt the latest expiry of the windows it can list: the store keeps the bucket at least that long,
     *                  and longer where its own deletions are late or unordered (DynamoDB's TTL)
     */
    void addDue(String pipeline, Instant dueAt, List<WindowRef> entries, Instant expiresAt);

    /**
     * Up to {@code limit} due buckets of one shard whose time is at or before {@code dueBy}, earliest first. Any shard
     * below {@link #MAX_DUE_SHARDS} can be read, also one at or past {@link #dueShards()}: it holds the buckets a
     * deployment with more shards wrote. A page may be a moment old (it may miss a bucket just added, or still show one
     * just removed): a bucket stays until a sweep has handled it, so that costs a run's delay or one more visit.
     */
    DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor);

    /** Deletes buckets the sweeper has handled. */
    void removeDue(List<DueBucket> buckets);

    /** Number of due-bucket shards per pipeline that buckets are written to, at most {@link #MAX_DUE_SHARDS}. */
    int dueShards();

    /** The most due-bucket shards a deployment can have (the template's {@code DueShards} {@code MaxValue}). */
    int MAX_DUE_SHARDS = 256;

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

    /**
     * Slots the pipeline holds: its open windows, plus any left behind by a crash until their epoch retires. A gauge,
     * which may be a moment old: the bound is kept by {@link #reserveSlots}' condition, never by this count.
     */
    long openWindows(String pipeline);

    /** A page of due buckets, and a cursor for the next page (null at the end). */
    record DuePage(List<DueBucket> buckets, String cursor) { }

    /**
     * One due bucket.
     *
     * @param id      the store's identity of the bucket within its pipeline and shard
     * @param dueAt   when its entries are to be visited
     * @param entries windows, or whole group keys ({@link WindowRef#isWholeKey()})
     */
    record DueBucket(String pipeline, int shard, String id, Instant dueAt, List<WindowRef> entries) {
        public DueBucket {
            entries = List.copyOf(entries);
        }
    }
}
