package dev.fanin.core.service;

import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit of a session's first claim, which is still in its key's live item: the committed session is written to
 * an item of its own first (created, or replaced if a committer before this one got that far), then it leaves the
 * live item, raising the key's latest committed end, in one write conditional on the live version. Only then is the
 * commit done: until that write, the live copy is authoritative (events late for the session are folded into it), so
 * a lost live write reads again and writes the session's own item anew, with whatever arrived meanwhile. A crash
 * between the two writes leaves the claim live; its lease ends and a takeover commits it again, over the copy the
 * crashed committer wrote. A committer whose fence is no longer the session's writes nothing.
 */
final class SessionCommit {

    private static final Logger LOG = LoggerFactory.getLogger(SessionCommit.class);

    private final FaninEngine engine;
    private final WindowWrites writes;
    private final FlushService flush;

    SessionCommit(FaninEngine engine, WindowWrites writes, FlushService flush) {
        this.engine = engine;
        this.writes = writes;
        this.flush = flush;
    }

    void commit(WindowState claimed, Followups followups) {
        StoredWindow[] committedCopy = {null};
        try {
            Optional<Boolean> done = Conflicts.retry(engine.settings().conflictRetries(), () -> commitOnce(claimed, committedCopy, followups));
            if (done.isEmpty()) {
                WindowLog.warn(LOG, claimed.ref(), "commit kept conflicting; the lease lets a sweep finish it", Map.of());
            }
        } catch (StoreUnavailableException e) {
            WindowLog.warn(LOG, claimed.ref(), "commit deferred: store unavailable; the lease lets a sweep finish it", Map.of());
        }
    }

    /**
     * @param committedCopy the session's own item as last read or written by this commit (null: not known yet)
     */
    private Optional<Boolean> commitOnce(WindowState claimed, StoredWindow[] committedCopy, Followups followups) {
        Instant now = engine.clock().instant();
        String pipeline = claimed.ref().pipeline();
        LiveSessions wrote = followups.visitWroteLive.remove(WindowRef.wholeKey(pipeline, claimed.ref().key()));
        LiveSessions live = wrote != null ? wrote : engine.ports().store().loadLive(pipeline, claimed.ref().key());
        Optional<StoredWindow> session = live.session(claimed.ref().windowId());
        if (session.isEmpty()) {
            // Committed (and moved out) by a flusher that took the claim over.
            flush.superseded(claimed);
            return Optional.of(true);
        }
        WindowState current = engine.decode(session.get());
        Transition t = flush.decideCommit(claimed, current, now, followups);
        if (t == null) {
            return Optional.of(true);
        }
        long commitSequence = engine.nextSequence();
        Optional<Long> written = writeCommittedCopy(t, committedCopy, followups);
        if (written.isEmpty()) {
            return Optional.empty();
        }
        if (written.get() < 0) {
            flush.superseded(claimed);
            return Optional.of(true);
        }
        LiveChange change = new LiveChange(live, Map.of(current.ref().windowId(), current), now);
        change.commit(current.ref().windowId(), t.next(), gap(pipeline));
        if (!writes.writeLive(change, followups).applied()) {
            return Optional.empty();
        }
        writes.after(t, written.get(), followups);
        flush.committed(claimed, t, now, commitSequence, followups);
        return Optional.of(true);
    }

    /**
     * Writes the committed session to its own item: created at the live version (so its versions keep rising), or,
     * where an earlier committer already created it, replaced under the version read.
     *
     * @return the version stored; empty when the write lost (read again); -1 when a committer with a later fence
     *         wrote it (this commit is superseded)
     */
    private Optional<Long> writeCommittedCopy(Transition t, StoredWindow[] committedCopy, Followups followups) {
        WindowState next = t.next();
        StoredWindow previous = committedCopy[0];
        WriteOutcome outcome = writes.writeOnly(previous, next, followups);
        if (outcome.applied()) {
            long version = previous == null ? next.version() + 1 : previous.version() + 1;
            committedCopy[0] = WindowCodec.encode(next.withVersion(version));
            return Optional.of(version);
        }
        Optional<StoredWindow> stored = engine.ports().store().load(next.ref());
        if (stored.isPresent() && stored.get().fence() > next.fence()) {
            return Optional.of(-1L);
        }
        committedCopy[0] = stored.orElse(null);
        return Optional.empty();
    }

    /** The configured gap; none once the pipeline's windows are no longer sessions (its live items take no new session). */
    private Duration gap(String pipeline) {
        return engine.machine(pipeline).config().window() instanceof WindowSpec.Session session ? session.gap() : Duration.ZERO;
    }
}
