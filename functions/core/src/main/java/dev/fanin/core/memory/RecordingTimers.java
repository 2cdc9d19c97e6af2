package dev.fanin.core.memory;

import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Timers kept in memory; a simulated clock delivers them (see the replay tool and the simulation). */
public final class RecordingTimers implements WindowTimers {

    public record Timer(WindowTimers.Wakeup wakeup, Instant armedAt) {
        public WindowRef ref() {
            return wakeup.ref();
        }

        public Instant dueAt() {
            return wakeup.dueAt();
        }
    }

    private final List<Timer> armed = new ArrayList<>();

    @Override
    public synchronized void arm(WindowTimers.Wakeup wakeup, Instant now) {
        armed.add(new Timer(wakeup, now));
    }

    /** Removes and returns the timers due at or before {@code now}, earliest first. */
    public synchronized List<Timer> takeDue(Instant now) {
        List<Timer> due = armed.stream().filter(t -> !t.dueAt().isAfter(now))
                .sorted(java.util.Comparator.comparing(Timer::dueAt)).toList();
        armed.removeAll(due);
        return due;
    }

    public synchronized List<Timer> pending() {
        return List.copyOf(armed);
    }
}
