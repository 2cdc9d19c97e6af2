package dev.fanin.core.service;

import dev.fanin.core.window.WindowRef;
import java.time.Instant;

/**
 * Per-window wake-ups: a timer message for a window arrives at (or, past the transport's 15-minute delay limit,
 * before) its due time and the window is visited exactly as the sweeper would. A visit that finds the window not yet
 * due re-arms the timer at its due time; a timer superseded by an earlier-armed one does nothing. Losing a timer is
 * harmless: the sweeper visits every due window.
 */
public final class TimerService {

    private final FaninEngine engine;
    private final WindowVisit visits;
    private final FlushService flush;

    public TimerService(FaninEngine engine) {
        this.engine = engine;
        this.visits = new WindowVisit(engine);
        this.flush = new FlushService(engine);
    }

    /** Handles one timer. Store failures propagate so that the timer message is retried. */
    public void fire(WindowRef ref, Instant dueAt) {
        Instant now = engine.clock().instant();
        Followups followups = new Followups();
        long watermark = engine.watermark(ref.pipeline(), Long.MIN_VALUE, now);
        followups.watermarks.put(ref.pipeline(), watermark);
        visits.visit(ref, watermark, now, dueAt, followups);
        flush.flush(followups);
    }
}
