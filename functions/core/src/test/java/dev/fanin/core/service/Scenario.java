package dev.fanin.core.service;

import dev.fanin.core.config.ConfigLoader;
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
