package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.AggregationSpec;
import dev.fanin.core.event.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline's accumulators for one window, as one immutable value. State is bounded by the aggregations' caps,
 * never by the number of events.
 *
 * <p>Callers add only events whose {@link EventIdDigest} is new for the window. Re-adding an event anyway is
 * harmless for min, max, first/last N and distinct values, and for distinct ids while the id is among the kept ones;
 * it double-counts count, sum, {@code skipped} and distinct ids beyond the cap.
 *
 * <p>{@link #merge} (session merges) is associative and commutative over windows with disjoint events.
 */
public final class Aggregates {

    private final List<AggregationSpec> specs;
    private final List<Accumulator> accumulators;

    private Aggregates(List<AggregationSpec> specs, List<Accumulator> accumulators) {
        this.specs = List.copyOf(specs);
        this.accumulators = List.copyOf(accumulators);
    }

    public static Aggregates empty(List<AggregationSpec> specs) {
        List<Accumulator> accumulators = new ArrayList<>(specs.size());
        for (AggregationSpec spec : specs) {
            accumulators.add(emptyFor(spec));
        }
        return new Aggregates(specs, accumulators);
    }

    public Aggregates add(Event event) {
        List<Accumulator> next = new ArrayList<>(accumulators.size());
        for (Accumulator accumulator : accumulators) {
            next.add(accumulator.add(event));
        }
        return new Aggregates(specs, next);
    }

    /** @throws IllegalArgumentException when the two were built from different aggregation lists */
    public Aggregates merge(Aggregates other) {
        if (!specs.equals(other.specs)) {
            throw new IllegalArgumentException("cannot merge aggregates of different aggregation lists: " + specs + " and " + other.specs);
        }
        List<Accumulator> next = new ArrayList<>(accumulators.size());
        for (int i = 0; i < accumulators.size(); i++) {
            next.add(accumulators.get(i).merge(other.accumulators.get(i)));
        }
        return new Aggregates(specs, next);
    }

    /**
     * The emitted {@code aggregations} object, one field per aggregation name: count → number; distinct ids →
     * {@code {count, ids}}; sum/min/max → {@code {value, skipped}} (value null when no numeric value was seen);
     * first/last N → {@code [{eventId, eventTime, value}]}; distinct values → {@code {values, truncated}}.
     */
    public ObjectNode toOutput() {
        ObjectNode output = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < specs.size(); i++) {
            output.set(specs.get(i).name(), accumulators.get(i).toOutput());
        }
        return output;
    }

    /**
     * The compact stored form: {@code {name: {"k": kind, "p": path, ...state}}}, {@code "p"} for an aggregation that
     * reads a field ({@code "$"}: the whole payload), so that a state read under another definition is recognised.
     */
    public ObjectNode toState() {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < specs.size(); i++) {
            ObjectNode entry = JsonNodeFactory.instance.objectNode();
            entry.put("k", kind(specs.get(i)));
            String reads = reads(specs.get(i));
            if (reads != null) {
                entry.put("p", reads);
            }
            entry.setAll((ObjectNode) accumulators.get(i).toState());
            state.set(specs.get(i).name(), entry);
        }
        return state;
    }

    /**
     * Decodes {@link #toState()} exactly. An aggregation missing from the state, or stored under another definition
     * (the configuration changed since: another kind, or another field read), starts empty: a value is never carried
     * into an aggregation that means something else. Bounds (cap, n, maxValueBytes) are not the definition: a value
     * stored under larger ones is cut to the current ones. A state written before {@code "p"} existed is taken to read
     * the field configured now.
     */
    public static Aggregates fromState(List<AggregationSpec> specs, JsonNode state) {
        List<Accumulator> accumulators = new ArrayList<>(specs.size());
        for (AggregationSpec spec : specs) {
            JsonNode entry = state.path(spec.name());
            boolean sameDefinition = entry.path("k").asText("").equals(kind(spec))
                    && (!entry.has("p") || entry.path("p").asText().equals(reads(spec)));
            accumulators.add(sameDefinition ? fromStateFor(spec, entry) : emptyFor(spec));
        }
        return new Aggregates(specs, accumulators);
    }

    public List<AggregationSpec> specs() {
        return specs;
    }

    private static String kind(AggregationSpec spec) {
        return spec.getClass().getSimpleName();
    }

    /** The field an aggregation reads ({@code "$"} for a sample of the whole payload), or null for one that reads none. */
    private static String reads(AggregationSpec spec) {
        if (spec.path() != null) {
            return spec.path().expression();
        }
        return spec instanceof AggregationSpec.FirstN || spec instanceof AggregationSpec.LastN ? "$" : null;
    }

    private static Accumulator emptyFor(AggregationSpec spec) {
        if (spec instanceof AggregationSpec.Count) {
            return new CountAccumulator(0);
        } else if (spec instanceof AggregationSpec.DistinctIds s) {
            return DistinctIdsAccumulator.empty(s.cap(), s.maxValueBytes());
        } else if (spec instanceof AggregationSpec.Sum s) {
            return NumericAccumulator.empty(NumericAccumulator.Op.SUM, s.path());
        } else if (spec instanceof AggregationSpec.Min s) {
            return NumericAccumulator.empty(NumericAccumulator.Op.MIN, s.path());
        } else if (spec instanceof AggregationSpec.Max s) {
            return NumericAccumulator.empty(NumericAccumulator.Op.MAX, s.path());
        } else if (spec instanceof AggregationSpec.FirstN s) {
            return SamplesAccumulator.empty(false, s.n(), s.path(), s.maxValueBytes());
        } else if (spec instanceof AggregationSpec.LastN s) {
            return SamplesAccumulator.empty(true, s.n(), s.path(), s.maxValueBytes());
        } else if (spec instanceof AggregationSpec.DistinctValues s) {
            return DistinctValuesAccumulator.empty(s.path(), s.cap(), s.maxValueBytes());
        }
        throw new IllegalArgumentException("unknown aggregation " + spec);
    }

    private static Accumulator fromStateFor(AggregationSpec spec, JsonNode entry) {
        if (spec instanceof AggregationSpec.Count) {
            return CountAccumulator.fromState(entry);
        } else if (spec instanceof AggregationSpec.DistinctIds s) {
            return DistinctIdsAccumulator.fromState(s.cap(), s.maxValueBytes(), entry);
        } else if (spec instanceof AggregationSpec.Sum s) {
            return NumericAccumulator.fromState(NumericAccumulator.Op.SUM, s.path(), entry);
        } else if (spec instanceof AggregationSpec.Min s) {
            return NumericAccumulator.fromState(NumericAccumulator.Op.MIN, s.path(), entry);
        } else if (spec instanceof AggregationSpec.Max s) {
            return NumericAccumulator.fromState(NumericAccumulator.Op.MAX, s.path(), entry);
        } else if (spec instanceof AggregationSpec.FirstN s) {
            return SamplesAccumulator.fromState(false, s.n(), s.path(), s.maxValueBytes(), entry);
        } else if (spec instanceof AggregationSpec.LastN s) {
            return SamplesAccumulator.fromState(true, s.n(), s.path(), s.maxValueBytes(), entry);
        } else if (spec instanceof AggregationSpec.DistinctValues s) {
            return DistinctValuesAccumulator.fromState(s.path(), s.cap(), s.maxValueBytes(), entry);
        }
        throw new IllegalArgumentException("unknown aggregation " + spec);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Aggregates other && other.specs.equals(specs) && other.accumulators.equals(accumulators);
    }

    @Override
    public int hashCode() {
        return accumulators.hashCode();
    }

    @Override
    public String toString() {
        return "Aggregates" + toState();
    }
}
