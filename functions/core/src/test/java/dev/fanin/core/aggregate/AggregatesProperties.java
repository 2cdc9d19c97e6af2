package dev.fanin.core.aggregate;

import static dev.fanin.core.trigger.EventFixture.event;
import static dev.fanin.core.trigger.PipelineFixture.path;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.AggregationSpec;
import dev.fanin.core.event.Event;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class AggregatesProperties {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final List<AggregationSpec> ALL = List.of(
            new AggregationSpec.Count("count"),
            new AggregationSpec.DistinctIds("ids", 3),
            new AggregationSpec.Sum("sum", path("$.v")),
            new AggregationSpec.Min("min", path("$.v")),
            new AggregationSpec.Max("max", path("$.v")),
            new AggregationSpec.FirstN("first", 2, path("$.v")),
            new AggregationSpec.LastN("last", 2, null),
            new AggregationSpec.DistinctValues("values", path("$.v"), 3),
            // Byte bounds small enough to bind: longer ids and values are not listed, longer samples are trimmed.
            new AggregationSpec.DistinctIds("idsByBytes", 10, 3),
            new AggregationSpec.DistinctValues("valuesByBytes", path("$.v"), 10, 4),
            new AggregationSpec.LastN("trimmedLast", 3, path("$.v"), 3));

    /** Events with distinct ids; values mix integers, decimals of several scales, strings and absences. */
    @Provide
    Arbitrary<List<Event>> events() {
        Arbitrary<String> value = Arbitraries.oneOf(
                Arbitraries.integers().between(-50, 50).map(String::valueOf),
                Arbitraries.of("1.0", "1.00", "-0.5", "2.50", "\"text\"", "null", "true"));
        Arbitrary<Event> oneEvent = Combinators.combine(Arbitraries.longs().between(0, 30), value, Arbitraries.integers().between(0, 3))
                .as((time, v, shape) -> event("id", time, shape == 0 ? "{}" : "{\"v\":" + v + "}"));
        return oneEvent.list().ofMaxSize(12).map(list -> {
            List<Event> withIds = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                Event e = list.get(i);
                withIds.add(event("e" + (char) ('a' + i), e.eventTime().toEpochMilli(), e.payload().toString()));
            }
            return withIds;
        });
    }

    private static Aggregates fold(List<Event> events) {
        Aggregates aggregates = Aggregates.empty(ALL);
        for (Event e : events) {
            aggregates = aggregates.add(e);
        }
        return aggregates;
    }

    @Property(tries = 300)
    void stateRoundTripsExactlyThroughItsJsonText(@ForAll("events") List<Event> events) throws Exception {
        Aggregates aggregates = fold(events);

        String stored = JSON.writeValueAsString(aggregates.toState());
        Aggregates restored = Aggregates.fromState(ALL, JSON.readTree(stored));

        assertThat(restored.toState()).isEqualTo(aggregates.toState());
        assertThat(restored.toOutput()).isEqualTo(aggregates.toOutput());
        assertThat(restored.add(event("zz", 7, "{\"v\":3}"))).isEqualTo(aggregates.add(event("zz", 7, "{\"v\":3}")));
    }

    @Property(tries = 300)
    void mergeOfPartsEqualsFoldOfAll(@ForAll("events") List<Event> events, @ForAll @IntRange(max = 12) int cut1,
                                     @ForAll @IntRange(max = 12) int cut2) {
        int a = Math.min(Math.min(cut1, cut2), events.size());
        int b = Math.min(Math.max(cut1, cut2), events.size());
        Aggregates x = fold(events.subList(0, a));
        Aggregates y = fold(events.subList(a, b));
        Aggregates z = fold(events.subList(b, events.size()));

        assertThat(x.merge(y)).isEqualTo(y.merge(x));
        assertThat(x.merge(y).merge(z)).isEqualTo(x.merge(y.merge(z)));
        assertThat(x.merge(y).merge(z)).isEqualTo(fold(events));
        assertThat(x.merge(Aggregates.empty(ALL))).isEqualTo(x);
    }

    @Property(tries = 300)
    void addingTheSameEventTwiceWithDigestDedupeNeverChangesTheWindow(@ForAll("events") List<Event> events,
                                                                       @ForAll @IntRange(max = 11) int repeatIndex) {
        // The window's accept step: fold an event only when its digest is new.
        Set<String> digests = new HashSet<>();
        Aggregates window = Aggregates.empty(ALL);
        List<Event> withRepeats = new ArrayList<>(events);
        withRepeats.addAll(events);
        if (!events.isEmpty()) {
            withRepeats.add(events.get(repeatIndex % events.size()));
        }
        for (Event e : withRepeats) {
            if (digests.add(EventIdDigest.of(e.eventId()))) {
                window = window.add(e);
            }
        }

        assertThat(window).isEqualTo(fold(events));
    }

    @Property(tries = 300)
    void idempotentAccumulatorsIgnoreARepeatEvenWithoutDedupe(@ForAll("events") List<Event> events) {
        List<AggregationSpec> idempotent = List.of(new AggregationSpec.Min("min", path("$.v")), new AggregationSpec.Max("max", path("$.v")),
                new AggregationSpec.FirstN("first", 2, path("$.v")), new AggregationSpec.LastN("last", 2, null),
                new AggregationSpec.DistinctValues("values", path("$.v"), 3),
            // Byte bounds small enough to bind: longer ids and values are not listed, longer samples are trimmed.
            new AggregationSpec.DistinctIds("idsByBytes", 10, 3),
            new AggregationSpec.DistinctValues("valuesByBytes", path("$.v"), 10, 4),
            new AggregationSpec.LastN("trimmedLast", 3, path("$.v"), 3));
        Aggregates once = Aggregates.empty(idempotent);
        Aggregates twice = Aggregates.empty(idempotent);
        for (Event e : events) {
            once = once.add(e);
            twice = twice.add(e).add(e);
        }

        // Min and max keep their value; their skipped count relies on dedupe (documented on Aggregates).
        for (String name : List.of("min", "max")) {
            assertThat(twice.toOutput().get(name).get("value")).isEqualTo(once.toOutput().get(name).get("value"));
        }
        for (String name : List.of("first", "last", "values")) {
            assertThat(twice.toOutput().get(name)).isEqualTo(once.toOutput().get(name));
        }
    }
}
