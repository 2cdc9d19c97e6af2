package dev.fanin.core.config;

/**
 * One output field of the aggregate. {@code name} is the field name in the emitted {@code aggregations} object. What
 * an aggregation lists is bounded by count and, per listed value, by bytes (as the JSON fanin writes:
 * {@code maxValueBytes}), so a window's state and aggregate have a size the configuration fixes ({@link SizeBudget}).
 * The byte bound applies to each value on its own, never to a sum, so what is listed does not depend on the order
 * events arrive in.
 */
public sealed interface AggregationSpec {

    String name();

    /** The field the aggregation reads; null for none (count, distinct ids) or the whole payload (first, last). */
    default FieldPath path() {
        return null;
    }

    record Count(String name) implements AggregationSpec { }

    /**
     * Distinct event ids: the count is exact, the list holds the {@code cap} smallest ids of at most
     * {@code maxValueBytes} of JSON each (a longer id is counted, not listed).
     */
    record DistinctIds(String name, int cap, int maxValueBytes) implements AggregationSpec {
        public DistinctIds(String name, int cap) {
            this(name, cap, ConfigDefaults.LISTED_VALUE_BYTES);
        }
    }

    record Sum(String name, FieldPath path) implements AggregationSpec { }

    record Min(String name, FieldPath path) implements AggregationSpec { }

    record Max(String name, FieldPath path) implements AggregationSpec { }

    /**
     * The first {@code n} events by event time (ties by event id); {@code path} null means the whole payload. A value
     * of more than {@code maxValueBytes} of JSON is trimmed: kept as null, flagged {@code trimmed}.
     */
    record FirstN(String name, int n, FieldPath path, int maxValueBytes) implements AggregationSpec {
        public FirstN(String name, int n, FieldPath path) {
            this(name, n, path, ConfigDefaults.SAMPLE_VALUE_BYTES);
        }
    }

    /** The last {@code n} events by event time (ties by event id); otherwise as {@link FirstN}. */
    record LastN(String name, int n, FieldPath path, int maxValueBytes) implements AggregationSpec {
        public LastN(String name, int n, FieldPath path) {
            this(name, n, path, ConfigDefaults.SAMPLE_VALUE_BYTES);
        }
    }

    /**
     * The set of a field's values: the {@code cap} smallest of at most {@code maxValueBytes} of JSON each; when a
     * value seen is not listed (beyond the cap, or longer), {@code truncated} is set.
     */
    record DistinctValues(String name, FieldPath path, int cap, int maxValueBytes) implements AggregationSpec {
        public DistinctValues(String name, FieldPath path, int cap) {
            this(name, path, cap, ConfigDefaults.LISTED_VALUE_BYTES);
        }
    }
}
