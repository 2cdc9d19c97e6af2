package dev.fanin.core.service;

import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.WindowTimers;
import java.time.Instant;

/** The timer transport with an outage switch: while {@link #down}, every send fails as an SQS outage would. */
final class OutageTimers implements WindowTimers {

    final RecordingTimers sent = new RecordingTimers();
    boolean down;

    @Override
    public void arm(Wakeup wakeup, Instant now) {
        if (down) {
            throw new IllegalStateException("SQS unavailable");
        }
        sent.arm(wakeup, now);
    }
}
