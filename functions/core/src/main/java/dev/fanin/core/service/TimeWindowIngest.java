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
            Optional<Boolean> done = Conflicts.retry(engine.settings().conflictRetries(), () -> attempt(share, ref, bounds, events));
            if (done.isEmpty()) {
                batch.fail(events, "window " + ref.windowId() + " kept conflicting");
            }
        } catch (StoreUnavailableException e) {
            engine.ports().metrics().count(MetricNames.STORE_UNAVAILABLE, ref.pipeline());
            batch.fail(events, "store unavailable: " + e.getMessage());
        }
    }

    private Optional<Boolean> attempt(PipelineBatch share, WindowRef ref, Interval bounds, List<Event> events) {
        IngestBatch batch = share.batch();
        WindowMachine machine = share.machine();
        long watermark = share.watermark();
        Optional<StoredWindow> loaded = share.reads().headOr(ref, () -> engine.ports().store().load(ref));
        WindowState state = loaded.map(engine::decode).orElseGet(() -> machine.open(ref, bounds, batch.now));
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
}
