package dev.fanin.core.service;

import dev.fanin.core.machine.Visitor;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WindowTimers.Wakeup;
import dev.fanin.core.watermark.Watermark;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-window wake-ups: a timer message for a window arrives at (or, past the transport's 15-minute delay limit,
 * before) its due time and the window is visited exactly as the sweeper would. A message of the window's live chain
 * ({@link dev.fanin.core.machine.TimerChain}) that finds the window not yet due arms the chain's next
 * message at the new due time, without a write; a message of a superseded chain arms nothing. Losing a timer is
 * harmless: the sweeper visits every due window.
 */
public final class TimerService {

    private static final Logger LOG = LoggerFactory.getLogger(TimerService.class);

    private final FaninEngine engine;
    private final WindowVisit visits;
    private final FlushService flush;

    public TimerService(FaninEngine engine) {
        this.engine = engine;
        this.visits = new WindowVisit(engine);
        this.flush = new FlushService(engine);
    }

    /** Handles one timer message; one not handled throws, so that the timer message is retried. */
    public void fire(Wakeup timer) {
        List<Wakeup> failed = fireAll(List.of(timer));
        if (!failed.isEmpty()) {
            throw new StoreUnavailableException("timer for " + timer.ref() + " not handled (the store unavailable, the window"
                    + " not handled, or the chain's next message not sent: see the log line before)", null);
        }
    }

    /**
     * Handles a batch of timers as one invocation: every window is visited, then one flush emits all the claims (an
     * emission call carries up to ten aggregates) and returns the batch's open-window slots in one update.
     *
     * @return the timers to redeliver: those whose visit failed (the store unavailable, or a window that cannot be
     *         handled), and those whose chain's next message could not be sent (so that the chain is not lost); the
     *         others are done
     */
    public List<Wakeup> fireAll(List<Wakeup> timers) {
        Instant now = engine.clock().instant();
        Followups followups = new Followups();
        List<Wakeup> failed = new ArrayList<>();
        for (Wakeup timer : timers) {
            String pipeline = timer.ref().pipeline();
            try {
                Watermark watermark = followups.watermarks.get(pipeline);
                if (watermark == null) {
                    watermark = engine.watermarkAt(pipeline, now);
                    followups.watermarks.put(pipeline, watermark);
                }
                visits.visit(timer.ref(), new Visit(watermark, now, Visitor.timer(timer.chain(), timer.dueAt()), followups));
                // A batch slower than half a lease (a throttled table) emits the claims it holds before visiting on, as
                // ingest and the sweep do: a sweep elsewhere would take them over at their lease's end and emit them twice.
                if (followups.claimLeaseHalfUsed(engine.clock().instant(), engine.settings().lease())) {
                    flush.emitClaimed(followups);
                }
            } catch (StoreUnavailableException e) {
                LOG.warn("timer for {} not handled, it will be redelivered: {}", timer.ref(), e.getMessage());
                failed.add(timer);
            } catch (RuntimeException e) {
                // One window that cannot be handled (a state it cannot read, a bug) fails its own timer alone: the
                // batch's other windows close now and their claims are flushed below.
                LOG.error("timer for {} failed, it will be redelivered (the sweeper closes the window if it keeps failing)", timer.ref(), e);
                failed.add(timer);
            }
        }
        // A chain continued by one of these timers lives on only if its next message was sent: else redeliver this one.
        Set<Wakeup> notArmed = new HashSet<>(flush.flush(followups));
        for (Wakeup timer : timers) {
            boolean continuationLost = notArmed.stream().anyMatch(w -> w.ref().equals(timer.ref()) && w.chain() == timer.chain());
            if (continuationLost && !failed.contains(timer)) {
                failed.add(timer);
            }
        }
        return failed;
    }
}
