package dev.fanin.core.service;

import dev.fanin.core.event.Event;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import java.util.List;
import java.util.Optional;

/**
 * The ingest of one tumbling or sliding window: its ids are fixed by the event times, so each window is decided and
 * written on its own, under its own version, from the batch's read up front ({@link BatchReads}) or, after a lost
 * write, a read of its own; two invocations racing on it serialise on that version.
 */
final class TimeWindowIngest {

    private final FaninEngine engine;
    private final WindowWrites writes;

    TimeWindowIngest(FaninEngine engine, WindowWrites writes) {
        this.engine = engine;
        this.writes = writes;
    }

    /** Applies {@code events} (all assigned to the window {@code ref}, of bounds {@code bounds}). */
    void ingest(PipelineBatch share, WindowRef ref, Interval bounds, List<Event> events) {
        IngestBatch batch = share.batch();
        try {
            Optional<Boolean> done = Conflicts.retry(engine.settings().conflictRetries(), batch::startStep,
                    () -> attempt(share, ref, bounds, events));
            if (done.isEmpty()) {
                batch.fail(events, "window " + ref.windowId() + " kept conflicting");
            }
        } catch (StoreUnavailableException e) {
            engine.ports().metrics().count(MetricNames.STORE_UNAVAILABLE, ref.pipeline());
            batch.fail(events, "store unavailable: " + e.getMessage());
        }
    }

    private Optional<Boolean> attempt(PipelineBatch share, WindowRef startRef, Interval bounds, List<Event> events) {
        IngestBatch batch = share.batch();
        WindowMachine machine = share.machine();
        long watermark = share.watermark();
        Located window = locate(share, startRef, bounds);
        WindowRef ref = window.ref();
        Optional<StoredWindow> loaded = window.loaded();
        WindowState state = window.state().orElseGet(() -> machine.open(ref, bounds, batch.now));
        Transition t = machine.ingest(state, events, watermark, batch.now);
        if (!t.write()) {
            batch.record(t.outcomes(), ref, watermark);
            batch.rearmAfterRedelivery(machine, state, events, watermark);
            return Optional.of(true);
        }
        WriteOutcome outcome = writes.write(loaded.orElse(null), t, batch.followups);
        if (outcome.applied()) {
            batch.record(t.outcomes(), ref, watermark);
            return Optional.of(true);
        }
        if (outcome.reason() == WriteOutcome.Rejection.OPEN_WINDOW_BOUND) {
            batch.refuse(ref, events);
            return Optional.of(true);
        }
        return Optional.empty();
    }

    /** The window of {@code bounds}: its id, its item as read (empty when new) and that item decoded. */
    private record Located(WindowRef ref, Optional<StoredWindow> loaded, Optional<WindowState> state) { }

    /**
     * Reads the window of {@code bounds}, at its start's id, or, when a window of another shape holds that id (opened
     * before the pipeline's size, slide or offset changed: it keeps its bounds and closes as it would have), at the id
     * naming both ends.
     */
    private Located locate(PipelineBatch share, WindowRef startRef, Interval bounds) {
        Optional<StoredWindow> loaded = share.reads().headOr(startRef, () -> engine.ports().store().load(startRef));
        Optional<WindowState> state = loaded.map(engine::decode);
        if (state.isEmpty() || state.get().bounds().equals(bounds)) {
            return new Located(startRef, loaded, state);
        }
        WindowRef own = startRef.withWindowId(WindowRef.timeWindowId(bounds.startMillis(), bounds.endMillis()));
        share.batch().followups.renameAhead(share.pipeline(), startRef, own);
        Optional<StoredWindow> ownLoaded = engine.ports().store().load(own);
        return new Located(own, ownLoaded, ownLoaded.map(engine::decode));
    }
}
