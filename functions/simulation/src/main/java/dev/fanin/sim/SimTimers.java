package dev.fanin.sim;

import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The timer transport: an SQS queue with per-message delay, capped at SQS's 15 minutes (a timer due later arrives
 * early, and the timer service re-arms it). Armed timers may be lost (fault); the sweeper is the backstop.
 */
public final class SimTimers implements WindowTimers {

    static final Duration MAX_DELAY = Duration.ofMinutes(15);

    private final SimQueue<Wakeup> queue;
    private final SimClock clock;
    private final Faults faults;
    private long seq;

    public SimTimers(SimQueue<Wakeup> queue, SimClock clock, Faults faults) {
        this.queue = queue;
        this.clock = clock;
        this.faults = faults;
    }

    @Override
    public void arm(Wakeup wakeup, Instant now) {
        WindowRef ref = wakeup.ref();
        faults.beforeCall("arm timer", List.of(ref), false);
        if (!faults.loseTimer(ref)) {
            long delay = Math.min(MAX_DELAY.toMillis(), Math.max(0, wakeup.dueAt().toEpochMilli() - now.toEpochMilli()));
            queue.send("t-" + (++seq), wakeup, clock.millis(), delay);
        }
        faults.afterCall("arm timer", List.of(ref));
    }
}
