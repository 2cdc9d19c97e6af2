package dev.fanin.core.service;

import dev.fanin.core.emit.AggregateEvent;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Closes one window as an explicit operator decision ({@code fanin windows close}): the machine claims it with reason
 * OPERATOR ({@code WindowMachine.closeByOperator}), the claim is written under the version condition like every
 * other, and the same flush emits and commits it. Racing a timer, a sweep or an ingest, exactly one close wins: a
 * conflict re-reads and re-decides, and a window found claimed or closed is reported as it stands, not closed again.
 * A session still accepting events is claimed in its key's live item, as any close of it is; its commit then moves it
 * to its own item (docs/FLUSH.md).
 */
public final class OperatorService {

    /** What became of the request. */
    public enum Outcome {
        /** The operator's close was claimed and its aggregate emitted; committed (or, if that failed, by a takeover). */
        CLOSED,
        /**
         * The operator's close was claimed but its emission failed ({@link Result#emitError()}): the window stays
         * CLAIMED, and a sweep takes the claim over when its lease ends, emitting the same aggregate if the target takes
         * it then.
         */
        EMIT_FAILED,
        /** The window was already claimed, closed or merged: nothing written (see the state for the close that won). */
        NOT_OPEN,
        /** No such window. */
        NOT_FOUND,
        /** Every attempt lost to a concurrent writer; nothing written. Try again. */
        CONFLICTED
    }

    /**
     * @param outcome     what happened
     * @param state       the window after the request (read again after the flush, or as found); null when not found
     * @param aggregate   the operator's aggregate as claimed (without {@code emittedAt}) when {@code outcome} is CLOSED or
     *                    EMIT_FAILED, else null; null too for a window that closed with nothing to emit (the empty
     *                    continuation of a revision closed full: {@code state.closedUnemitted()} says so)
     * @param emitError   why the emission failed (the target's error code and message) when EMIT_FAILED, else null
     */
    public record Result(Outcome outcome, WindowState state, AggregateEvent aggregate, String emitError) { }

    private final FaninEngine engine;
    private final WindowWrites writes;
    private final FlushService flush;

    public OperatorService(FaninEngine engine) {
        this.engine = engine;
        this.writes = new WindowWrites(engine);
        this.flush = new FlushService(engine);
    }

    /** @param note why, for the aggregate's {@code operatorNote} (1 to 1000 characters, no control characters) */
    public Result close(WindowRef ref, String note) {
        long watermark = engine.watermark(ref.pipeline(), Long.MIN_VALUE, engine.clock().instant());
        Followups followups = new Followups();
        // Each attempt decides at its own time, so a claim written on a retry holds a lease counted from that write.
        return Conflicts.retry(engine.settings().conflictRetries(), () -> attempt(ref, note, watermark, engine.clock().instant(), followups))
                .orElseGet(() -> new Result(Outcome.CONFLICTED, null, null, null));
    }

    /**
     * One read, decision and write: a session still accepting events is claimed in its key's live item (where that
     * copy is authoritative), any other window in its own item.
     *
     * @return empty when the write lost to another writer
     */
    private Optional<Result> attempt(WindowRef ref, String note, long watermark, Instant now, Followups followups) {
        LiveSessions live = ref.isSession() ? engine.ports().store().loadLive(ref.pipeline(), ref.key()) : null;
        Optional<StoredWindow> liveCopy = live == null ? Optional.empty() : live.session(ref.windowId());
        Optional<StoredWindow> loaded = liveCopy.isPresent() ? liveCopy : engine.ports().store().load(ref);
        if (loaded.isEmpty()) {
            return Optional.of(new Result(Outcome.NOT_FOUND, null, null, null));
        }
        WindowState state = engine.decode(loaded.get());
        Transition t = engine.machine(ref.pipeline()).closeByOperator(state, note, watermark, now);
        if (!t.write()) {
            return Optional.of(new Result(Outcome.NOT_OPEN, state, null, null));
        }
        if (!write(liveCopy.isPresent() ? live : null, loaded.get(), state, t, now, followups)) {
            return Optional.empty();
        }
        flush.flush(followups);
        // As it stands after the flush: CLOSED once committed, still CLAIMED when the emission (or the commit) failed.
        WindowState after = engine.ports().store().load(ref).map(engine::decode).orElse(t.next());
        if (t.next().claim() == null) {
            return Optional.of(new Result(Outcome.CLOSED, after, null, null)); // an empty split continuation: nothing to emit
        }
        String emitError = followups.emitErrors.get(ref);
        return Optional.of(new Result(emitError == null ? Outcome.CLOSED : Outcome.EMIT_FAILED, after,
                AggregateEvent.fromJson(t.next().claim().emission()), emitError));
    }

    /** @param live the key's live sessions when the window is one of them, else null */
    private boolean write(LiveSessions live, StoredWindow loaded, WindowState state, Transition t, Instant now, Followups followups) {
        if (live == null) {
            return writes.write(loaded, t, followups).applied();
        }
        LiveChange change = new LiveChange(live, Map.of(state.ref().windowId(), state), now);
        change.put(t, false);
        return writes.writeLive(change, followups).applied();
    }
}
