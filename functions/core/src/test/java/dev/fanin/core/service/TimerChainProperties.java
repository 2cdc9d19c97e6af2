package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.machine.WindowState;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Timer chains, as properties over any pipeline and event sequence, with timer messages delivered as SQS delivers
 * them (at their due time, or after 15 minutes for a later one) and the sweeper running every minute:
 * <ul>
 *   <li>a window never has more than one live chain: whenever it has a chain, exactly one message of it is on its
 *   way (nothing here loses or duplicates messages), so chains cannot multiply;</li>
 *   <li>every window still closes by its hard deadline plus one sweep period and a lease.</li>
 * </ul>
 */
class TimerChainProperties {

    private static final Duration MAX_DELAY = Duration.ofMinutes(15);

    /** Timer messages on their way: each arrives at its due time, or 15 minutes after it was sent if that is sooner. */
    static final class DelayedMessages implements WindowTimers {

        record InFlight(Wakeup wakeup, Instant arrivesAt) { }

        final PriorityQueue<InFlight> inFlight = new PriorityQueue<>(Comparator.comparing(InFlight::arrivesAt));

        @Override
        public void arm(Wakeup wakeup, Instant now) {
            Instant latest = now.plus(MAX_DELAY);
            Instant arrives = wakeup.dueAt().isAfter(latest) ? latest : wakeup.dueAt().isBefore(now) ? now : wakeup.dueAt();
            inFlight.add(new InFlight(wakeup, arrives));
        }

        Instant next() {
            return inFlight.isEmpty() ? null : inFlight.peek().arrivesAt();
        }
    }

    @Property(tries = 150)
    void aWindowHasExactlyOneMessageOfItsLiveChainOnItsWayAndStillCloses(@ForAll("scenarios") Scenario scenario) {
        TestClock clock = new TestClock(Scenario.START);
        InMemoryWindowStore store = new InMemoryWindowStore(4);
        DelayedMessages timers = new DelayedMessages();
        FaninEngine engine = scenario.engine(store, timers, clock);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);
        TimerService timerService = new TimerService(engine);

        int n = 0;
        Instant nextSweep = Scenario.START.plus(Scenario.SWEEP_PERIOD);
        Instant lastArrival = scenario.arrival(scenario.events().size() - 1);
        Instant bound = null;
        while (true) {
            Instant arrival = n < scenario.events().size() ? scenario.arrival(n) : null;
            Instant timerAt = timers.next();
            if (arrival != null && !arrival.isAfter(nextSweep) && (timerAt == null || !arrival.isAfter(timerAt))) {
                clock.set(arrival);
                ingest.handle(List.of(scenario.message(n++)));
            } else if (timerAt != null && !timerAt.isAfter(nextSweep)) {
                clock.set(timerAt);
                timerService.fire(timers.inFlight.poll().wakeup());
            } else {
                if (arrival == null && bound == null) {
                    bound = Scenario.closeBound(engine, store, lastArrival);
                }
                if (bound != null && nextSweep.isAfter(bound)) {
                    break;
                }
                clock.set(nextSweep);
                sweep.sweep(clock.instant().plusSeconds(60));
                nextSweep = nextSweep.plus(Scenario.SWEEP_PERIOD);
            }
            assertOneLiveMessagePerChain(engine, store, timers, clock.instant());
        }
        Scenario.assertEveryWindowClosed(engine, store, clock.instant());
    }

    private static void assertOneLiveMessagePerChain(FaninEngine engine, InMemoryWindowStore store, DelayedMessages timers, Instant now) {
        for (StoredWindow w : store.all()) {
            WindowState s = engine.decode(w);
            long live = timers.inFlight.stream()
                    .filter(m -> m.wakeup().ref().equals(w.ref()) && s.timer() != null && m.wakeup().chain() == s.timer().id())
                    .count();
            assertThat(live).as("messages of %s's live chain %s on their way at %s (status %s)", w.ref(), s.timer(), now, s.status())
                    .isEqualTo(s.timer() == null ? 0 : 1);
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        // Lifetimes up to 40 minutes, so that chains also hop over SQS's 15-minute delay limit.
        return Scenario.arbitrary(2400);
    }
}
