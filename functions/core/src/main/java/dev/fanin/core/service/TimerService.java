package dev.fanin.core.service;

import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-window wake-ups: a timer message for a window arrives at (or, past the transport's 15-minute delay limit,
 * before) its due time and the window is visited exactly as the sweeper would. A visit that finds the window not yet
 * due re-arms the timer at its due time; a timer superseded by an earlier-armed one does nothing. Losing a timer is
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

    /** One timer message: the window it wakes and the due time it was armed for. */
    public record Timer(WindowRef ref, Instant dueAt) {
        public Timer {
            Objects.requireNonNull(ref, "ref");
            Objects.requireNonNull(dueAt, "dueAt");
        }
    }

    /** Handles one timer. Store failures propagate so that the timer message is retried. */
    public void fire(WindowRef ref, Instant dueAt) {
        List<Timer> failed = fireAll(List.of(new Timer(ref, dueAt)));
        if (!failed.isEmpty()) {
            throw new StoreUnavailableException("timer for " + ref + " not handled: the store was unavailable", null);
        }
    }

    /**
     * Handles a batch of timers as one invocation: every window is visited, then one flush emits all the claims (an
     * emission call carries up to ten aggregates) and returns the batch's open-window slots in one update.
     *
     * @return the timers whose visit failed because the store was unavailable, to be redelivered; the others are done
     */
    public List<Timer> fireAll(List<Timer> timers) {
        Instant now = engine.clock().instant();
        Followups followups = new Followups();
        List<Timer> failed = new ArrayList<>();
        for (Timer timer : timers) {
            String pipeline = timer.ref().pipeline();
            try {
                Long watermark = followups.watermarks.get(pipeline);
                if (watermark == null) {
                    watermark = engine.watermark(pipeline, Long.MIN_VALUE, now);
                    followups.watermarks.put(pipeline, watermark);
                }
                visits.visit(timer.ref(), watermark, now, timer.dueAt(), followups);
            } catch (StoreUnavailableException e) {
                LOG.warn("timer for {} not handled, it will be redelivered: {}", timer.ref(), e.getMessage());
                failed.add(timer);
            }
        }
        flush.flush(followups);
        return failed;
    }
}
