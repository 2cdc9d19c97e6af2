package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.event.Event;

/**
 * One aggregation's running value. Immutable; bounded by the aggregation's caps, never by the number of events.
 * {@code merge} is associative and commutative for accumulators of the same aggregation over disjoint events.
 */
sealed interface Accumulator permits CountAccumulator, DistinctIdsAccumulator, NumericAccumulator, SamplesAccumulator,
        DistinctValuesAccumulator {

    Accumulator add(Event event);

    /** @throws IllegalArgumentException when {@code other} belongs to another aggregation */
    Accumulator merge(Accumulator other);

    /** The value emitted under the aggregation's name in {@code aggregations}. */
    JsonNode toOutput();

    /** The compact stored form, decoded by the matching {@code fromState}. */
    JsonNode toState();
}
