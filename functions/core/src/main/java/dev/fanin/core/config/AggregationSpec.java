package dev.fanin.core.config;

/** One output field of the aggregate. {@code name} is the field name in the emitted {@code aggregations} object. */
public sealed interface AggregationSpec {

    String name();

    record Count(String name) implements AggregationSpec { }

    /** Distinct event ids, capped: the count is exact, the list holds at most {@code cap} ids. */
    record DistinctIds(String name, int cap) implements AggregationSpec { }

    record Sum(String name, FieldPath path) implements AggregationSpec { }

    record Min(String name, FieldPath path) implements AggregationSpec { }

    record Max(String name, FieldPath path) implements AggregationSpec { }

    /** The first {@code n} events by event time (ties by event id); {@code path} null means the whole payload. */
    record FirstN(String name, int n, FieldPath path) implements AggregationSpec { }

    /** The last {@code n} events by event time (ties by event id); {@code path} null means the whole payload. */
    record LastN(String name, int n, FieldPath path) implements AggregationSpec { }

    /** The set of a field's values, at most {@code cap} of them; beyond the cap, {@code truncated} is set. */
    record DistinctValues(String name, FieldPath path, int cap) implements AggregationSpec { }
}
