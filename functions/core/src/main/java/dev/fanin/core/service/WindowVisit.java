package dev.fanin.core.service;

import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.Optional;

/**
 * A time-driven visit of one window (sweeper or timer): load, let the machine decide with the current watermark and
 * time, write under the version condition, record follow-ups. Re-reads and re-decides on a conflict, so a visit
 * racing an ingest or another visit either wins cleanly or finds the work done.
 */
final class WindowVisit {

    private final FaninEngine engine;
    private final WindowWrites writes;

    WindowVisit(FaninEngine engine) {
        this.engine = engine;
        this.writes = new WindowWrites(engine);
    }

    /** @return the window as it stands after the visit, or empty if it no longer exists */
    Optional<WindowState> visit(WindowRef ref, long watermark, Instant now, Followups followups) {
        return visit(ref, watermark, now, WindowMachine.Visitor.SWEEP, followups);
    }

    /**
     * @param visitor the sweeper, or the timer message that triggered this visit: a message of the window's live
     *                chain that finds it not yet due arms the chain's next message, with no write
     */
    Optional<WindowState> visit(WindowRef ref, long watermark, Instant now, WindowMachine.Visitor visitor, Followups followups) {
        for (int attempt = 0; attempt <= engine.settings().conflictRetries(); attempt++) {
            Optional<StoredWindow> loaded = engine.ports().store().load(ref);
            if (loaded.isEmpty()) {
                return Optional.empty();
            }
            WindowState state = engine.decode(loaded.get());
            Transition t = engine.machine(ref.pipeline()).tick(state, watermark, now, visitor);
            if (!t.write()) {
                if (t.armsTimer()) {
                    followups.timers.add(WindowWrites.wakeup(t));
                }
                return Optional.of(state);
            }
            if (t.action() == Transition.Action.EMIT && state.isClaimed()) {
                engine.ports().metrics().count(MetricNames.TAKEOVERS, ref.pipeline());
            }
            WriteOutcome outcome = writes.write(loaded.get(), t, followups);
            if (outcome.applied()) {
                return Optional.of(t.next());
            }
        }
        return Optional.empty();
    }
}
