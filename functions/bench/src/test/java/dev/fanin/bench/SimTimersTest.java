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

        EventSourceBatches.Batch<SimTimers.Pending> first = timers.nextBatch(noWindow).orElseThrow();

        assertThat(first.atMillis()).isEqualTo(T0.plusSeconds(5).toEpochMilli());
        assertThat(windows(timers.take(first))).containsExactly("a");
        assertThat(timers.nextBatch(noWindow).orElseThrow().atMillis()).isEqualTo(T0.plusSeconds(6).toEpochMilli());
    }

    @Test
    void aWindowGathersTheTimersVisibleUntilItEndsAndDelaysTheFirstByIt() {
        SimTimers timers = new SimTimers(true);
        timers.armAll(List.of(dueIn("a", 5), dueIn("b", 6), dueIn("c", 7)), T0);

        EventSourceBatches.Batch<SimTimers.Pending> first = timers.nextBatch(Simulation.TIMER_QUEUE).orElseThrow();

        assertThat(first.atMillis()).isEqualTo(T0.plusSeconds(5).plus(Simulation.TIMER_QUEUE.window()).toEpochMilli());
        assertThat(windows(timers.take(first))).containsExactly("a", "b");
        assertThat(timers.delivered()).isEqualTo(2);
        assertThat(timers.nextBatch(Simulation.TIMER_QUEUE).orElseThrow().atMillis()).isEqualTo(T0.plusSeconds(8).toEpochMilli());
    }

    @Test
    void aTimerArmedTwiceAtOneTimeIsDeliveredTwice() {
        SimTimers timers = new SimTimers(true);
        timers.armAll(List.of(dueIn("a", 5), dueIn("a", 5)), T0);

        assertThat(timers.take(timers.nextBatch(Simulation.TIMER_QUEUE).orElseThrow())).hasSize(2);
        assertThat(timers.anyPending()).isFalse();
    }
}
