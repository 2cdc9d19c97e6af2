package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.machine.EventOutcome.Disposition;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A session filled at {@code bounds.maxEventsPerWindow} (3 here, {@code onOverflow: split}) is cut just after the last
 * event it took (docs/SEMANTICS.md, session rule 7), never inside a millisecond: the events of that millisecond it has
 * no room for would lie inside the cut, late for it. Events at T0 + i ms, {@code n} of them at each millisecond.
 */
class SessionCutMillisecondTest {

    private static final long T0 = Instant.parse("2026-11-29T10:00:00Z").toEpochMilli();
    private static final Instant NOW = Instant.ofEpochMilli(T0).plusSeconds(5);

    @ParameterizedTest(name = "{0} an ms, {1} ms: {2} taken, cut at T0 + {3} ms")
    @CsvSource({
            // one event a millisecond: the bound (end - 1, end, end + 1 events) as before; a full session is cut
            "1, 2, 2, -1",
            "1, 3, 3, 3",
            "1, 4, 3, 3",
            // the bound filled inside a millisecond: the cut takes that millisecond whole
            "2, 2, 4, 2",
            "2, 3, 4, 2",
            "5, 1, 5, 1",
            "5, 2, 5, 1",
    })
    void aFullSessionTakesTheRestOfItsLastMillisecond(int perMillisecond, int milliseconds, int taken, long cutAt) {
        WindowMachine machine = new WindowMachine(PipelineFixture.pipeline().window(new WindowSpec.Session(Duration.ofSeconds(30)))
                .maxEventsPerWindow(3).onOverflow(Bounds.Overflow.SPLIT).build(), Duration.ofSeconds(30));
        WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.sessionId(T0));
        List<Event> events = new ArrayList<>();
        for (int ms = 0; ms < milliseconds; ms++) {
            for (int i = 0; i < perMillisecond; i++) {
                events.add(event("e" + ms + "-" + i, T0 + ms));
            }
        }
        WindowState open = machine.open(ref, new Interval(T0, T0 + 30_000), NOW);

        Transition t = machine.ingest(open, events, T0, NOW);

        long counted = t.outcomes().stream().filter(o -> o.disposition() == Disposition.ACCEPTED).count();
        assertThat(counted).as("taken").isEqualTo(taken);
        assertThat(t.outcomes()).as("the rest wait for the continuation").hasSize(events.size())
                .filteredOn(o -> o.disposition() != Disposition.ACCEPTED).allMatch(o -> o.disposition() == Disposition.RETRY);
        if (cutAt < 0) {
            assertThat(t.next().isClaimed()).as("not full: not cut").isFalse();
            return;
        }
        assertThat(t.next().claim().reason()).isEqualTo(CloseReason.SIZE_LIMIT);
        assertThat(t.next().bounds().endMillis()).as("frozen just after the last event taken").isEqualTo(T0 + cutAt);
        assertThat(t.outcomes()).filteredOn(o -> o.disposition() == Disposition.RETRY)
                .allMatch(o -> o.event().eventTime().toEpochMilli() >= T0 + cutAt, "every event left over lies after the cut");
    }
}
