package dev.fanin.bench;

import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Tells what a window write is for from the statuses it moves between, as {@link MeteredWindowStore} bills it: the
 * events, a merge, the first revision's claim and commit, and the claims and commits of later revisions (the
 * corrections). A late event's write into a committed window is the events' (the competent design writes it too);
 * a write that claims a correction as it takes the event is the correction's. Remembers which windows have been
 * committed once. A write refused by its condition is told as if it applied (the simulation is single-threaded:
 * refusals are rare).
 */
final class WritePurposes {

    private final Set<WindowRef> committed = new HashSet<>();
    /** The events a stored window has counted; null: writes that only record too-late verdicts are told as the events'. */
    private ToLongFunction<StoredWindow> counted;

    void countWith(ToLongFunction<StoredWindow> counted) {
        this.counted = counted;
    }

    /**
     * A window item created: a time window's first write (closed, counting nothing: written to keep too-late
     * verdicts), or a session's committed head.
     */
    Purpose ofCreate(StoredWindow window) {
        if (committed.contains(window.ref())) {
            return Purpose.CORRECTION;
        }
        if (!window.ref().isSession() && window.status() == WindowStatus.CLOSED && counted != null && counted.applyAsLong(window) == 0) {
            return Purpose.TOO_LATE_RECORD;
        }
        return switch (window.status()) {
            case CLOSED -> committedNow(window.ref(), Purpose.COMMITTED_HEAD);
            case CLAIMED -> Purpose.CLAIM;
            case MERGED -> Purpose.SESSION_MERGE;
            default -> Purpose.WINDOW_EVENTS;
        };
    }

    /** A window item replaced. */
    Purpose ofReplace(StoredWindow previous, StoredWindow next) {
        boolean claims = next.status() == WindowStatus.CLAIMED;
        boolean commits = next.status() == WindowStatus.CLOSED && previous.status() == WindowStatus.CLAIMED;
        if (!claims && !commits && recordsVerdictsOnly(previous, next)) {
            return Purpose.TOO_LATE_RECORD;
        }
        if (committed.contains(next.ref())) {
            return claims || commits ? Purpose.CORRECTION : Purpose.WINDOW_EVENTS;
        }
        if (commits) {
            return committedNow(next.ref(), Purpose.COMMIT);
        }
        return switch (next.status()) {
            case CLAIMED -> Purpose.CLAIM;
            case MERGED -> Purpose.SESSION_MERGE;
            default -> Purpose.WINDOW_EVENTS;
        };
    }

    /**
     * A key's live item replaced: one that only records too-late verdicts (in the item, or in a session that counts
     * nothing more) is theirs; a claimed session leaving it is its commit; a session newly claimed, its claim; a
     * session leaving unclaimed, or marked merged, a merge; anything else the events. One write that does several is
     * told by the first of these.
     */
    Purpose ofLive(LiveSessions previous, LiveSessions next) {
        if (liveRecordsVerdictsOnly(previous, next)) {
            return Purpose.TOO_LATE_RECORD;
        }
        Map<String, WindowStatus> before = new HashMap<>();
        previous.sessions().forEach(w -> before.put(w.ref().windowId(), w.status()));
        Map<String, WindowStatus> after = new HashMap<>();
        next.sessions().forEach(w -> after.put(w.ref().windowId(), w.status()));
        boolean removedClaimed = before.entrySet().stream()
                .anyMatch(e -> !after.containsKey(e.getKey()) && e.getValue() == WindowStatus.CLAIMED);
        if (removedClaimed) {
            return Purpose.LIVE_REMOVAL;
        }
        boolean newlyClaimed = after.entrySet().stream()
                .anyMatch(e -> e.getValue() == WindowStatus.CLAIMED && before.get(e.getKey()) != WindowStatus.CLAIMED);
        if (newlyClaimed) {
            return Purpose.CLAIM;
        }
        boolean merged = !after.keySet().containsAll(before.keySet()) || after.containsValue(WindowStatus.MERGED);
        return merged ? Purpose.SESSION_MERGE : Purpose.LIVE_EVENTS;
    }

    /**
     * Whether a write adds event ids and counts none: it records too-late verdicts (a write that also spills ids to a
     * slice, so whose tail shrinks, is told as the events').
     */
    private boolean recordsVerdictsOnly(StoredWindow previous, StoredWindow next) {
        return counted != null && next.eventIds().size() > previous.eventIds().size()
                && counted.applyAsLong(previous) == counted.applyAsLong(next);
    }

    /** Whether a live write keeps every session as it was, but for ids added and none counted, and adds a verdict. */
    private boolean liveRecordsVerdictsOnly(LiveSessions previous, LiveSessions next) {
        if (counted == null || previous.sessions().size() != next.sessions().size()) {
            return false;
        }
        boolean added = next.tooLate().size() > previous.tooLate().size();
        for (StoredWindow after : next.sessions()) {
            StoredWindow before = previous.session(after.ref().windowId()).orElse(null);
            if (before == null || before.status() != after.status()) {
                return false;
            }
            added |= after.eventIds().size() > before.eventIds().size();
        }
        // Decoded only for a write that added something: the counts are the costly part.
        return added && next.sessions().stream().allMatch(after ->
                counted.applyAsLong(previous.session(after.ref().windowId()).orElseThrow()) == counted.applyAsLong(after));
    }

    private Purpose committedNow(WindowRef ref, Purpose purpose) {
        committed.add(ref);
        return purpose;
    }
}
