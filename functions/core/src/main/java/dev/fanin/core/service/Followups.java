package dev.fanin.core.service;

import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.watermark.Watermark;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Work that follows successful window writes within one invocation: claimed revisions to emit (batched, so one
 * PutEvents call carries up to ten aggregates), timers to arm, and open-window slots to return; and what the
 * invocation has listed in due buckets.
 */
final class Followups {

    /** A commit written: the next visit it left (null: none) and its place in {@link FaninEngine#nextSequence} order. */
    record Committed(Instant nextVisit, long sequence) { }

    final List<WindowState> claimed = new ArrayList<>();
    final List<WindowTimers.Wakeup> timers = new ArrayList<>();
    /**
     * Ids of this batch's messages delivered before (an attempt above one). The earlier delivery may have
     * written its windows and died before sending their timers, so a window they touch without a write re-arms its
     * timer chain ({@code IngestService}).
     */
    final Set<String> redeliveredMessages = new HashSet<>();
    /** Watermarks already computed in this invocation, by pipeline, so a commit does not read them again. */
    final Map<String, Watermark> watermarks = new HashMap<>();
    /** Open-window slots reserved in this invocation and not yet given to a new window. */
    final Map<OpenWindowSlots.Bucket, Integer> unusedSlots = new HashMap<>();
    /** Slots of windows this invocation closed or merged for the first time, to return. */
    final Map<OpenWindowSlots.Bucket, Integer> freedSlots = new HashMap<>();
    /**
     * Per pipeline, while ingest works through a batch: the windows (group keys, for sessions) of the batch from the one
     * being written on, which the first write that needs a due listing lists together ({@link DueCoverage}).
     */
    final Map<String, List<WindowRef>> dueAhead = new HashMap<>();

    /**
     * The window being written goes by {@code renamed} instead of {@code ref} (a time window that takes the id naming
     * both its ends): the batch's listing from it on names it so ({@link DueCoverage}).
     */
    void renameAhead(String pipeline, WindowRef ref, WindowRef renamed) {
        List<WindowRef> ahead = dueAhead.get(pipeline);
        if (ahead != null && !ahead.isEmpty() && ahead.get(0).equals(ref)) {
            List<WindowRef> named = new ArrayList<>(ahead);
            named.set(0, renamed);
            dueAhead.put(pipeline, named);
        }
    }
    /** Windows and group keys this invocation has listed in a due bucket, with the earliest bucket time. */
    final Map<WindowRef, Instant> listed = new HashMap<>();
    /**
     * Windows whose claim this invocation committed, with when a sweep must visit them next and when (in
     * {@link FaninEngine#nextSequence} order) the commit was written, so that a sweep does not list again, at its lease end, a
     * window it claimed and then closed, while a listing it recorded after the commit stands.
     */
    final Map<WindowRef, Committed> committed = new HashMap<>();
    /**
     * What this invocation's timer and sweep visits wrote and nothing has written since ({@link WindowWrites} keeps
     * both maps): by window (a time window, a committed session) and by key (its live item), each as a load would
     * return it right after the write. A commit that follows in the invocation starts from it instead of reading the
     * item again; a condition the store refuses sends it back to a read.
     */
    final Map<WindowRef, StoredWindow> visitWrote = new HashMap<>();
    final Map<WindowRef, LiveSessions> visitWroteLive = new HashMap<>();
    /** The claims this invocation could not emit, with the target's error: an operator's close reports it. */
    final Map<WindowRef, String> emitErrors = new HashMap<>();
    /** Per pipeline, how many windows this invocation may still create at most: the size of the next reservation. */
    final Map<String, Integer> creationsAhead = new HashMap<>();

    /**
     * Whether the oldest claim still waiting for its emission has used half its lease by {@code now}. A caller that
     * holds its claims to emit them together (an ingest batch, a sweep) emits them then: one that went on past a lease
     * would see a sweep or a timer take the claim over and emit the window a second time (the same aggregate, fenced
     * off at commit, but twice at the target).
     */
    boolean claimLeaseHalfUsed(Instant now, Duration lease) {
        return claimed.stream().map(WindowState::leaseUntil).min(Instant::compareTo)
                .map(firstLeaseEnd -> !now.isBefore(firstLeaseEnd.minus(lease.dividedBy(2))))
                .orElse(false);
    }
}
