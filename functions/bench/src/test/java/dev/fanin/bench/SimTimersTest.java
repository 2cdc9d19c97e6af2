package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.port.WindowTimers.Wakeup;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timer queue's event source as the bench runs it: whole-second delays, then the mapping's batching window. */
class SimTimersTest {

    private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");

    private static Wakeup dueIn(String window, long seconds) {
        return new Wakeup(new WindowRef("p", "k", window), T0.plusSeconds(seconds), 1);
    }

    private static List<String> windows(List<SimTimers.Pending> batch) {
        return batch.stream().map(p -> p.wakeup().ref().windowId()).toList();
    }

    @Test
    void withoutAWindowATimerIsDeliveredAloneAtItsSecond() {
        SimTimers timers = new SimTimers(true);
        timers.armAll(List.of(dueIn("a", 5), dueIn("b", 6)), T0);
        Simulation.BatchShape noWindow = new Simulation.BatchShape(10, Duration.ZERO);

        Instant at = timers.nextBatchAt(noWindow);

        assertThat(at).isEqualTo(T0.plusSeconds(5));
        assertThat(windows(timers.takeBatch(at, 10))).containsExactly("a");
        assertThat(timers.nextBatchAt(noWindow)).isEqualTo(T0.plusSeconds(6));
    }

    @Test
    void aWindowGathersTheTimersVisibleUntilItEndsAndDelaysTheFirstByIt() {
        SimTimers timers = new SimTimers(true);
        timers.armAll(List.of(dueIn("a", 5), dueIn("b", 6), dueIn("c", 7)), T0);

        Instant at = timers.nextBatchAt(Simulation.TIMER_QUEUE);

        assertThat(at).isEqualTo(T0.plusSeconds(5).plus(Simulation.TIMER_QUEUE.window()));
        assertThat(windows(timers.takeBatch(at, Simulation.TIMER_QUEUE.size()))).containsExactly("a", "b");
        assertThat(timers.delivered()).isEqualTo(2);
        assertThat(timers.nextBatchAt(Simulation.TIMER_QUEUE)).isEqualTo(T0.plusSeconds(8));
    }

    @Test
    void aFullBatchIsHandedOverWhenItsLastTimerBecomesVisible() {
        SimTimers timers = new SimTimers(true);
        timers.armAll(List.of(dueIn("a", 5), dueIn("b", 5), dueIn("c", 5)), T0);
        Simulation.BatchShape twoAtATime = new Simulation.BatchShape(2, Duration.ofSeconds(10));

        Instant at = timers.nextBatchAt(twoAtATime);

        assertThat(at).isEqualTo(T0.plusSeconds(5));
        assertThat(timers.takeBatch(at, 2)).hasSize(2);
        assertThat(timers.nextBatchAt(twoAtATime)).isEqualTo(T0.plusSeconds(15));
    }
}
