package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.window.WindowStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * A generated pipeline (any window type, trigger, incomplete policy, watermark and lateness the loader accepts, as
 * YAML) and the events sent to it: {arrival offset ms, event time offset ms, key, id}, in arrival order.
 */
record Scenario(String yaml, List<long[]> events) {

    /** Processing time of the scenario's start: arrival offsets count from it. */
    static final Instant START = Instant.parse("2026-11-29T10:00:00Z");
    /** The sweeper's schedule. */
    static final Duration SWEEP_PERIOD = Duration.ofMinutes(1);

    /** An engine for this scenario's pipeline on in-memory ports, with {@code timers} as its timer transport. */
    FaninEngine engine(InMemoryWindowStore store, WindowTimers timers, Clock clock) {
        return InMemoryEngines.of(yaml, store, new RecordingEmitter(AggregateSchema::assertValid), timers, clock);
    }

    /** When event {@code index} arrives. */
    Instant arrival(int index) {
        return START.plusMillis(events.get(index)[0]);
    }

    /** Event {@code index} as its SQS message, first delivery. */
    InboundMessage message(int index) {
        long[] e = events.get(index);
        String body = "{\"k\":\"k" + e[2] + "\",\"id\":\"e" + e[3] + "\",\"t\":" + (START.toEpochMilli() + e[1]) + ",\"v\":" + e[3] + "}";
        return InMemoryEngines.message("m" + index, body, arrival(index), 1);
    }

    /** When every window of {@code store} must be closed by: the latest hard deadline plus a sweep period and a lease. */
    static Instant closeBound(FaninEngine engine, InMemoryWindowStore store, Instant ifNoWindow) {
        Instant latestDeadline = store.all().stream().map(w -> engine.decode(w).hardDeadline()).max(Instant::compareTo).orElse(ifNoWindow);
        return latestDeadline.plus(SWEEP_PERIOD).plus(engine.settings().lease());
    }

    /** Asserts that every window of {@code store} is closed or merged at {@code now}. */
    static void assertEveryWindowClosed(FaninEngine engine, InMemoryWindowStore store, Instant now) {
        for (StoredWindow w : store.all()) {
            WindowState s = engine.decode(w);
            assertThat(s.status()).as("window %s (deadline %s) at %s", w.ref(), s.hardDeadline(), now)
                    .isIn(WindowStatus.CLOSED, WindowStatus.MERGED);
        }
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(yaml).append("events (arrival ms, event time ms, key, id):\n");
        events.forEach(e -> b.append("  ").append(java.util.Arrays.toString(e)).append('\n'));
        return b.toString();
    }

    /** Scenarios whose hard lifetime is at most {@code maxLifetimeSeconds}. */
    static Arbitrary<Scenario> arbitrary(int maxLifetimeSeconds) {
        Arbitrary<String> window = Arbitraries.oneOf(
                Arbitraries.integers().between(1, 120).map(s -> "{type: tumbling, size: " + s + "s}"),
                Arbitraries.integers().between(1, 6).map(k -> "{type: sliding, size: " + (10 * k) + "s, slide: 10s}"),
                Arbitraries.integers().between(1, 90).map(g -> "{type: session, gap: " + g + "s}"));
        Arbitrary<String> triggers = Combinators.combine(
                Arbitraries.integers().between(200, maxLifetimeSeconds),
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
        // Small size limits split windows (SIZE_LIMIT closes and continuations) now and then.
        Arbitrary<String> bounds = Arbitraries.of("", "", "    bounds: {maxEventsPerWindow: 3}\n", "    bounds: {maxEventsPerWindow: 7}\n");
        return Combinators.combine(window, triggers, incomplete, watermark, Arbitraries.integers().between(0, 120), bounds, events)
                .as((w, t, inc, wm, lateness, bound, evs) -> {
                    boolean knows = t.contains("expected") || t.contains("sentinel");
                    String policy = switch (inc) {
                        case "hold-flagged" -> knows ? "{policy: hold, atDeadline: fire-flagged}" : "{policy: fire-partial}";
                        case "hold-dead" -> knows ? "{policy: hold, atDeadline: dead-letter}" : "{policy: fire-partial}";
                        case "reconcile" -> knows ? "{policy: fire-and-reconcile}" : "{policy: fire-partial}";
                        default -> "{policy: fire-partial}";
                    };
                    String yaml = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
                            + "    eventTime: {path: $.t, maxPast: 30d, maxFuture: 30d}\n    window: " + w + "\n    triggers:" + t + "\n"
                            + "    watermark: " + wm + "\n    allowedLateness: " + lateness + "s\n    incomplete: " + policy + "\n" + bound
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
