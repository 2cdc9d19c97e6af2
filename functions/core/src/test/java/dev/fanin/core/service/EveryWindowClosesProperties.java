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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
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

    record Scenario(String yaml, List<long[]> events) {
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder(yaml).append("events (arrival ms, event time ms, key, id):\n");
            events.forEach(e -> b.append("  ").append(java.util.Arrays.toString(e)).append('\n'));
            return b.toString();
        }
    }

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
        Arbitrary<String> window = Arbitraries.oneOf(
                Arbitraries.integers().between(1, 120).map(s -> "{type: tumbling, size: " + s + "s}"),
                Arbitraries.integers().between(1, 6).map(k -> "{type: sliding, size: " + (10 * k) + "s, slide: 10s}"),
                Arbitraries.integers().between(1, 90).map(g -> "{type: session, gap: " + g + "s}"));
        Arbitrary<String> triggers = Combinators.combine(
                Arbitraries.integers().between(200, 900),
                Arbitraries.of("", "count: 5\n      ", "expected: {count: 4}\n      ", "sentinel: {when: {path: $.v, equals: \"3\"}}\n      "))
                .as((life, extra) -> "\n      " + extra + "maxLifetime: " + life + "s");
        Arbitrary<String> incomplete = Arbitraries.of("fire-partial", "hold-flagged", "hold-dead", "reconcile");
        Arbitrary<String> watermark = Combinators.combine(Arbitraries.integers().between(0, 30), Arbitraries.integers().between(1, 120))
                .as((ooo, idle) -> "{outOfOrderness: " + ooo + "s, idleAfter: " + idle + "s}");
        Arbitrary<List<long[]>> events = Combinators.combine(
                        Arbitraries.longs().between(0, 600_000),
                        Arbitraries.longs().between(-120_000, 600_000),
                        Arbitraries.longs().between(0, 4),
                        Arbitraries.longs().between(0, 30))
                .as((arrival, eventTime, key, id) -> new long[] {arrival, eventTime, key, id})
                .list().ofMinSize(1).ofMaxSize(40)
                .map(list -> {
                    List<long[]> sorted = new ArrayList<>(list);
                    sorted.sort((a, b) -> Long.compare(a[0], b[0]));
                    return sorted;
                });
        return Combinators.combine(window, triggers, incomplete, watermark, Arbitraries.integers().between(0, 120), events)
                .as((w, t, inc, wm, lateness, evs) -> {
                    boolean knows = t.contains("expected") || t.contains("sentinel");
                    String policy = switch (inc) {
                        case "hold-flagged" -> knows ? "{policy: hold, atDeadline: fire-flagged}" : "{policy: fire-partial}";
                        case "hold-dead" -> knows ? "{policy: hold, atDeadline: dead-letter}" : "{policy: fire-partial}";
                        case "reconcile" -> knows ? "{policy: fire-and-reconcile}" : "{policy: fire-partial}";
                        default -> "{policy: fire-partial}";
                    };
                    String yaml = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
                            + "    eventTime: {path: $.t, maxPast: 30d, maxFuture: 30d}\n    window: " + w + "\n    triggers:" + t + "\n"
                            + "    watermark: " + wm + "\n    allowedLateness: " + lateness + "s\n    incomplete: " + policy + "\n"
                            + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
                    return new Scenario(yaml, evs);
                })
                .filter(s -> {
                    try {
                        ConfigLoader.load(s.yaml(), "property");
                        return true;
                    } catch (RuntimeException e) {
                        return false;
                    }
                });
    }
}
