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
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
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

    private static final Duration SWEEP_PERIOD = Duration.ofMinutes(1);
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
        FaninConfig config = ConfigLoader.load(scenario.yaml(), "property");
        Instant start = Instant.parse("2026-11-29T10:00:00Z");
        MutableClock clock = new MutableClock(start);
        InMemoryWindowStore store = new InMemoryWindowStore(4);
        RecordingSideOutput side = new RecordingSideOutput();
        DelayedMessages timers = new DelayedMessages();
        FaninEngine engine = new FaninEngine(config, new FaninPorts(store, new InMemoryWatermarkStore(), new RecordingEmitter(),
                timers, side, side, Metrics.NONE), FaninSettings.defaults(), clock);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);
        TimerService timerService = new TimerService(engine);

        int n = 0;
        Instant nextSweep = start.plus(SWEEP_PERIOD);
        Instant lastArrival = start.plusMillis(scenario.events().get(scenario.events().size() - 1)[0]);
        Instant bound = null;
        while (true) {
            long[] e = n < scenario.events().size() ? scenario.events().get(n) : null;
            Instant arrival = e == null ? null : start.plusMillis(e[0]);
            Instant timerAt = timers.next();
            if (arrival != null && !arrival.isAfter(nextSweep) && (timerAt == null || !arrival.isAfter(timerAt))) {
                clock.set(arrival);
                String body = "{\"k\":\"k" + e[2] + "\",\"id\":\"e" + e[3] + "\",\"t\":" + (start.toEpochMilli() + e[1]) + ",\"v\":" + e[3] + "}";
                ingest.handle(List.of(new InboundMessage("m" + (n++), body,
                        Map.of("SentTimestamp", String.valueOf(arrival.toEpochMilli()), "ApproximateReceiveCount", "1"), arrival)));
            } else if (timerAt != null && !timerAt.isAfter(nextSweep)) {
                clock.set(timerAt);
                timerService.fire(timers.inFlight.poll().wakeup());
            } else {
                if (arrival == null && bound == null) {
                    Instant latestDeadline = store.all().stream().map(w -> engine.decode(w).hardDeadline())
                            .max(Instant::compareTo).orElse(lastArrival);
                    bound = latestDeadline.plus(SWEEP_PERIOD).plus(engine.settings().lease());
                }
                if (bound != null && nextSweep.isAfter(bound)) {
                    break;
                }
                clock.set(nextSweep);
                sweep.sweep(clock.instant().plusSeconds(60));
                nextSweep = nextSweep.plus(SWEEP_PERIOD);
            }
            assertOneLiveMessagePerChain(engine, store, timers, clock.instant());
        }
        for (StoredWindow w : store.all()) {
            WindowState s = engine.decode(w);
            assertThat(s.status()).as("window %s (deadline %s) at %s", w.ref(), s.hardDeadline(), clock.instant())
                    .isIn(WindowStatus.CLOSED, WindowStatus.MERGED);
        }
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
