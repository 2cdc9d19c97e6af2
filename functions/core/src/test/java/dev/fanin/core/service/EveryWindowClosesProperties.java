package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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

    private static final Duration SWEEP_PERIOD = Duration.ofMinutes(1);

    @Property(tries = 150)
    void everyWindowClosesByItsHardDeadline(@ForAll("scenarios") Scenario scenario) {
        FaninConfig config = ConfigLoader.load(scenario.yaml(), "property");
        Instant start = Instant.parse("2026-11-29T10:00:00Z");
        MutableClock clock = new MutableClock(start);
        InMemoryWindowStore store = new InMemoryWindowStore(4);
        RecordingSideOutput side = new RecordingSideOutput();
        FaninEngine engine = new FaninEngine(config, new FaninPorts(store, new InMemoryWatermarkStore(), new RecordingEmitter(),
                new RecordingTimers(), side, side, Metrics.NONE), FaninSettings.defaults(), clock);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);

        int n = 0;
        Instant nextSweep = start.plus(SWEEP_PERIOD);
        for (long[] e : scenario.events()) {
            // e = {arrival offset ms, event time offset ms, key, id}
            Instant arrival = start.plusMillis(e[0]);
            // The schedule keeps running while traffic flows.
            while (!nextSweep.isAfter(arrival)) {
                clock.set(nextSweep);
                sweep.sweep(clock.instant().plusSeconds(60));
                nextSweep = nextSweep.plus(SWEEP_PERIOD);
            }
            clock.set(arrival);
            String body = "{\"k\":\"k" + e[2] + "\",\"id\":\"e" + e[3] + "\",\"t\":" + (start.toEpochMilli() + e[1]) + ",\"v\":" + e[3] + "}";
            ingest.handle(List.of(new InboundMessage("m" + (n++), body,
                    Map.of("SentTimestamp", String.valueOf(clock.instant().toEpochMilli()), "ApproximateReceiveCount", "1"), clock.instant())));
        }
        Instant latestDeadline = store.all().stream().map(w -> engine.decode(w).hardDeadline()).max(Instant::compareTo).orElse(clock.instant());
        Instant bound = latestDeadline.plus(SWEEP_PERIOD).plus(engine.settings().lease());
        // Only the schedule runs from now on: one sweep per period until the bound.
        while (!nextSweep.isAfter(bound)) {
            clock.set(nextSweep);
            sweep.sweep(clock.instant().plusSeconds(60));
            nextSweep = nextSweep.plus(SWEEP_PERIOD);
        }
        for (StoredWindow w : store.all()) {
            WindowState s = engine.decode(w);
            assertThat(s.status()).as("window %s (deadline %s) at %s", w.ref(), s.hardDeadline(), clock.instant())
                    .isIn(WindowStatus.CLOSED, WindowStatus.MERGED);
        }
        assertThat(store.openWindows("p")).isZero();
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        return Scenario.arbitrary(900);
    }
}
