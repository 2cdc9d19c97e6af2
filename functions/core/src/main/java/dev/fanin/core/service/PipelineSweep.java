package dev.fanin.core.service;

import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.service.SweepPlan.Listing;
import dev.fanin.core.service.SweepPlan.Relisting;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.watermark.Watermark;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pipeline's part of a sweep run, shared by its shards: what to list again, which buckets are handled, and the
 * pipeline's figures.
 */
final class PipelineSweep {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineSweep.class);

    private final FaninEngine engine;
    private final FlushService flush;
    final String pipeline;
    final Watermark watermark;
    /** Windows (and keys) to list again, with the next visit and the expiry the listing must outlive. */
    private final Map<WindowRef, Relisting> relisted = new HashMap<>();
    /** The latest commit of each window this run committed. */
    private final Map<WindowRef, Followups.Committed> commits = new HashMap<>();
    private final List<WindowStore.DueBucket> handled = new ArrayList<>();
    /**
     * Entries this run visited and found with nothing due before its next listing, with when the visit started. Shared
     * by the shards: one entry's listings can sit in several.
     */
    private final Map<WindowRef, Instant> settled = new ConcurrentHashMap<>();
    private int overdue;
    private long oldest;
    private long pastDeadline;

    PipelineSweep(FaninEngine engine, FlushService flush, String pipeline, Watermark watermark) {
        this.engine = engine;
        this.flush = flush;
        this.pipeline = pipeline;
        this.watermark = watermark;
    }

    /** Fresh follow-ups that know the pipeline's watermark. */
    Followups followups() {
        Followups followups = new Followups();
        followups.watermarks.put(pipeline, watermark);
        return followups;
    }

    /**
     * Whether a listing of {@code entry} in a bucket due at {@code dueAt} adds nothing to a visit this run has made
     * already. A bucket is written before the writes it covers, and falls due only once they are done (an ingest
     * listing waits for the invocation's end; any other writer lists a window that has a due time, which the earlier
     * visit read and listed again): so a visit that started at or after {@code dueAt} read every write the listing
     * covers, and a write after that visit has a listing of its own.
     */
    boolean visitedSince(WindowRef entry, Instant dueAt) {
        Instant visitedAt = settled.get(entry);
        return visitedAt != null && !dueAt.isAfter(visitedAt);
    }

    /** Records that the visit of {@code entry} that started at {@code visitedAt} left nothing due before its next listing. */
    void settled(WindowRef entry, Instant visitedAt) {
        settled.merge(entry, visitedAt, (a, b) -> a.isAfter(b) ? a : b);
    }

    /** An entry not visited: listed again at its bucket's time, so the next run takes it; no commit replaces it. */
    synchronized void relistUnvisited(WindowRef entry, Instant dueAt) {
        Instant expiresAt = engine.machine(pipeline).expiryOfWindowOpenedAt(engine.clock().instant());
        relisted.merge(entry, new Relisting(dueAt, expiresAt, Long.MAX_VALUE), Relisting::earlier);
    }

    /**
     * Plans to list {@code ref} at {@code nextVisit}, as read at {@code readAt}; a commit of this run written after
     * that read decides instead (it is the newer state).
     */
    synchronized void relist(WindowRef ref, Instant nextVisit, Instant expiresAt, long readAt) {
        Relisting relisting = newest(ref, new Relisting(nextVisit, expiresAt, readAt));
        if (relisting != null) {
            relisted.merge(ref, relisting, Relisting::earlier);
        }
    }

    /**
     * {@code planned} as this run's latest commit of {@code ref} leaves it: unchanged if it rests on a read drawn
     * after the commit was written, else the commit's next visit (null: none).
     */
    private Relisting newest(WindowRef ref, Relisting planned) {
        Followups.Committed commit = commits.get(ref);
        if (commit == null || commit.sequence() < planned.sequence()) {
            return planned;
        }
        return commit.nextVisit() == null ? null : new Relisting(commit.nextVisit(), planned.expiresAt(), commit.sequence());
    }

    synchronized void handled(WindowStore.DueBucket bucket) {
        handled.add(bucket);
    }

    synchronized void countOverdue(int entries) {
        overdue += entries;
    }

    synchronized int overdue() {
        return overdue;
    }

    synchronized void oldest(long seconds) {
        oldest = Math.max(oldest, seconds);
    }

    synchronized long oldest() {
        return oldest;
    }

    /** Records a window not yet closed {@code seconds} past its hard deadline (negative: before it). */
    synchronized void pastDeadline(long seconds) {
        pastDeadline = Math.max(pastDeadline, seconds);
    }

    synchronized long pastDeadline() {
        return pastDeadline;
    }

    /**
     * Emits and commits what a shard claimed, then lists each window it committed as the commit left it (usually:
     * not at all) instead of at its lease end. Only listings that rest on a read drawn before the commit was written
     * are replaced: a window a late event reopened after the commit, and that this run read since, keeps the
     * listing of that read. Commits are kept for the rest of the run, so that a listing planned later from an older
     * read (another shard's) is replaced too.
     */
    void flush(Followups followups) {
        flush.flush(followups);
        synchronized (this) {
            followups.committed.forEach((ref, commit) -> {
                commits.merge(ref, commit, (x, y) -> x.sequence() > y.sequence() ? x : y);
                relisted.computeIfPresent(ref, (r, pending) -> newest(r, pending));
            });
        }
        followups.committed.clear();
    }

    /**
     * Lists again what is due later, then deletes the handled buckets: in this order, so a crash in between leaves
     * a window listed twice, never not at all. The new buckets are written after the run has read its pages, so a
     * run never picks up its own listings.
     */
    synchronized void relistAndRemove() {
        WindowStore store = engine.ports().store();
        try {
            for (Listing listing : SweepPlan.listings(relisted, WindowMachine.DEFAULT_DUE_GRANULARITY)) {
                store.addDue(pipeline, listing.dueAt(), listing.entries(), listing.expiresAt());
            }
            if (!handled.isEmpty()) {
                store.removeDue(handled);
            }
        } catch (StoreUnavailableException e) {
            // The handled buckets stay and are handled again by the next run: a visit is idempotent.
            LOG.warn("due buckets of pipeline {} not settled, the next sweep handles them again: {}", pipeline, e.getMessage());
        }
    }
}
