package dev.fanin.core.port;

import dev.fanin.core.window.SessionView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The sessions of one group key that are not yet committed (OPEN, HELD, or CLAIMED for their first close), stored
 * together under one version: every change to them (a session created, extended, merged, claimed, or committed and
 * moved out) is one write conditional on that version, so two invocations on one key never plan against different
 * views of its sessions. A committed session lives on in an item of its own ({@link WindowStore#closedSessions}).
 *
 * <p>While a session is here this copy is authoritative: a stored copy elsewhere with the same id is one its
 * committer wrote before removing it from here, and is replaced or confirmed by that removal.
 *
 * @param version    0 when the key has no live sessions stored yet; every write stores {@code version + 1}
 * @param sessions   the live sessions, each carrying this {@code version}, ordered by id
 * @param lastClosed the committed session with the latest end (frozen bounds, and whether it was cut short), or null
 *                   before the first commit: no committed session ends after its end, so an event at or after it
 *                   falls into none, and a new session may continue it
 * @param tooLate    the too-late verdicts of events that no session of the key held when they came (nothing else to
 *                   record them in): each event's marked digest ({@code EventIdDigest.tooLate}) and when it may be
 *                   forgotten; a later copy of such an event is too late as well ({@code KeyVerdicts})
 * @param expiresAt  when the store may delete this item: never before any session of the key it has held expires,
 *                   nor before a verdict it holds may be forgotten
 */
public record LiveSessions(String pipeline, String key, long version, List<StoredWindow> sessions, SessionView lastClosed,
                           Map<String, Instant> tooLate, Instant expiresAt) {

    /**
     * The most sessions of one key that accept events at once; past it, the ingest cuts the oldest short (reason
     * SESSION_LIMIT).
     */
    public static final int MAX_ACCEPTING = 32;
    /**
     * The most bytes of encoded state (UTF-8, before compression) the accepting sessions of one key hold after an
     * ingest's write; past it, the ingest cuts the oldest short (reason SESSION_LIMIT), and they leave the item at
     * their commit, in the same invocation (later, by a takeover, only when that emission fails). A claimed session
     * carries its frozen aggregate (about its accumulators again) until then, so the item holds at most about twice
     * this plus one batch's growth and its too-late verdicts ({@link #MAX_TOO_LATE}, under 2 KB): 128 KiB keeps it under
     * DynamoDB's 400 KB unless one batch adds over 58 KB of state to one key (then the ingest writes fewer of the batch's
     * events and hands the rest back), and the largest accepting state of a bundled sample pipeline (about 107 KB) fits
     * in one session.
     */
    public static final long MAX_LIVE_STATE_BYTES = 128 * 1024;
    /**
     * The most too-late verdicts ({@link #tooLate}) the item keeps: under 2 KB (a 17-character digest and a number each),
     * so a key holding them pays at most two write units more a write of its live item. Past it, those forgotten soonest
     * go first, and a later copy of such an event may be counted.
     */
    public static final int MAX_TOO_LATE = 64;

    public LiveSessions {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(key, "key");
        sessions = List.copyOf(sessions);
        tooLate = Map.copyOf(tooLate);
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** Live sessions holding no too-late verdict. */
    public LiveSessions(String pipeline, String key, long version, List<StoredWindow> sessions, SessionView lastClosed, Instant expiresAt) {
        this(pipeline, key, version, sessions, lastClosed, Map.of(), expiresAt);
    }

    /** A key with nothing stored yet. */
    public static LiveSessions none(String pipeline, String key) {
        return new LiveSessions(pipeline, key, 0, List.of(), null, Instant.EPOCH);
    }

    /** The end of the latest committed session ({@link Long#MIN_VALUE} before the first commit). */
    public long closedBefore() {
        return lastClosed == null ? Long.MIN_VALUE : lastClosed.bounds().endMillis();
    }

    /**
     * These sessions as a store holds them once they are written over version {@link #version()}: at the next version,
     * which every session carries.
     */
    public LiveSessions written() {
        long stored = version + 1;
        return with(stored, sessions.stream().map(w -> w.withVersion(stored)).toList());
    }

    /** This key's item at {@code version} holding {@code sessions} instead, all else (last closed, verdicts, expiry) kept. */
    public LiveSessions with(long version, List<StoredWindow> sessions) {
        return new LiveSessions(pipeline, key, version, sessions, lastClosed, tooLate, expiresAt);
    }

    public Optional<StoredWindow> session(String windowId) {
        return sessions.stream().filter(s -> s.ref().windowId().equals(windowId)).findFirst();
    }
}
