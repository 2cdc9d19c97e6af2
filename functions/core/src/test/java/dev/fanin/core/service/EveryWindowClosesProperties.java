package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The first absolute rule, as a property: for any event sequence and any configuration the loader accepts, every
 * window reaches a closed state by its hard deadline (plus one sweep period and, when a claim is in flight, its
 * lease), with all traffic stopped and nothing but the scheduled sweep running.
 */
class EveryWindowClosesProperties {

    @Property(tries = 150)
    void everyWindowClosesByItsHardDeadline(@ForAll("scenarios") Scenario scenario) {
        TestClock clock = new TestClock(Scenario.START);
        InMemoryWindowStore store = new InMemoryWindowStore(4);
        FaninEngine engine = scenario.engine(store, new RecordingTimers(), clock);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);

        Instant nextSweep = Scenario.START.plus(Scenario.SWEEP_PERIOD);
        for (int i = 0; i < scenario.events().size(); i++) {
            Instant arrival = scenario.arrival(i);
            // The schedule keeps running while traffic flows.
            while (!nextSweep.isAfter(arrival)) {
                clock.set(nextSweep);
                sweep.sweep(clock.instant().plusSeconds(60));
                nextSweep = nextSweep.plus(Scenario.SWEEP_PERIOD);
            }
            clock.set(arrival);
            ingest.handle(List.of(scenario.message(i)));
        }
        Instant bound = Scenario.closeBound(engine, store, clock.instant());
        // Only the schedule runs from now on: one sweep per period until the bound.
        while (!nextSweep.isAfter(bound)) {
            clock.set(nextSweep);
            sweep.sweep(clock.instant().plusSeconds(60));
            nextSweep = nextSweep.plus(Scenario.SWEEP_PERIOD);
        }
        Scenario.assertEveryWindowClosed(engine, store, clock.instant());
        assertThat(store.openWindows("p")).isZero();
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        return Scenario.arbitrary(900);
    }
}
