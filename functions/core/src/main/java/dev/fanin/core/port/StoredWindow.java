package dev.fanin.core.port;

import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * A window as the store keeps it. The store understands the typed fields (they appear in its conditions, its due
 * index and its TTL); {@code state} is the core's own encoding of everything else and is opaque to the store.
 *
 * @param ref        identity
 * @param version    optimistic-concurrency version: 0 for a window never stored; every successful write stores
 *                   {@code version + 1} and is conditional on the version read
 * @param status     life-cycle status
 * @param dueAt      processing time of the next time-based check, or null when nothing is due (due buckets list every window that has one)
 * @param expiresAt  TTL: the store's garbage collector deletes the items after this; never the closing mechanism
 * @param fence      fencing token of the latest claim (0: never claimed); a commit must present it
 * @param leaseUntil while CLAIMED, when the claim may be taken over; otherwise null
 * @param eventIds   digests of every event id the window has accepted, and of those it recorded too late (marked), for
 *                   its whole life (dedupe)
 * @param state      the core's encoding of bounds, aggregates, completeness, revision and the frozen emission
 * @param layout     the store's own bookkeeping of how {@code eventIds} are laid out (null for a new window); the
 *                   core copies it unchanged from the loaded window to the next
 */
public record StoredWindow(
        WindowRef ref,
        long version,
        WindowStatus status,
        Instant dueAt,
        Instant expiresAt,
        long fence,
        Instant leaseUntil,
        Set<String> eventIds,
        String state,
        Object layout) {

    public StoredWindow {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(state, "state");
        eventIds = Set.copyOf(eventIds);
    }

    /** This window as stored at {@code storedVersion}: what a load returns right after a write of it. */
    public StoredWindow withVersion(long storedVersion) {
        return new StoredWindow(ref, storedVersion, status, dueAt, expiresAt, fence, leaseUntil, eventIds, state, layout);
    }
}
