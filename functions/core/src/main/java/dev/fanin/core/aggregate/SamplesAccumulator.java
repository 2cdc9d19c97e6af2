package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.emit.IsoMillis;
import dev.fanin.core.event.Event;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The first or last {@code n} events ordered by (event time, event id), each with its value (the field at
 * {@code path}, JSON null when absent; the whole payload when {@code path} is null). Idempotent: re-adding an event
 * that is kept changes nothing, and one that is not kept is dropped again.
 */
record SamplesAccumulator(boolean last, int n, FieldPath path, List<Sample> samples) implements Accumulator {

    /** One kept event. Ordered by event time, then event id. */
    record Sample(String eventId, long eventTimeMillis, JsonNode value) {

        static final Comparator<Sample> ORDER = Comparator.comparingLong(Sample::eventTimeMillis).thenComparing(Sample::eventId);

        Sample {
            Objects.requireNonNull(eventId, "eventId");
            Objects.requireNonNull(value, "value");
        }
    }

    SamplesAccumulator {
        samples = List.copyOf(samples);
    }

    static SamplesAccumulator empty(boolean last, int n, FieldPath path) {
        return new SamplesAccumulator(last, n, path, List.of());
    }

    static SamplesAccumulator fromState(boolean last, int n, FieldPath path, JsonNode state) {
        List<Sample> samples = new ArrayList<>();
        for (JsonNode s : state.path("s")) {
            samples.add(new Sample(s.path("id").textValue(), s.path("t").longValue(), s.has("v") ? s.get("v") : NullNode.getInstance()));
        }
        return new SamplesAccumulator(last, n, path, samples);
    }

    @Override
    public Accumulator add(Event event) {
        JsonNode value = path == null ? event.payload() : EventFields.read(path, event);
        Sample sample = new Sample(event.eventId(), event.eventTime().toEpochMilli(), value.isMissingNode() ? NullNode.getInstance() : value);
        for (Sample kept : samples) {
            if (Sample.ORDER.compare(kept, sample) == 0) {
                return this;
            }
        }
        return withSamples(SortedCapped.union(samples, List.of(sample)));
    }

    @Override
    public Accumulator merge(Accumulator other) {
        if (!(other instanceof SamplesAccumulator that) || that.last != last || that.n != n || !Objects.equals(that.path, path)) {
            throw new IllegalArgumentException("cannot merge samples " + this + " with " + other);
        }
        return withSamples(SortedCapped.union(samples, that.samples));
    }

    private SamplesAccumulator withSamples(List<Sample> all) {
        List<Sample> kept = last ? SortedCapped.largest(all, Sample.ORDER, n) : SortedCapped.smallest(all, Sample.ORDER, n);
        return new SamplesAccumulator(last, n, path, kept);
    }

    @Override
    public JsonNode toOutput() {
        ArrayNode output = JsonNodeFactory.instance.arrayNode();
        for (Sample sample : samples) {
            output.addObject()
                    .put("eventId", sample.eventId())
                    .put("eventTime", IsoMillis.format(sample.eventTimeMillis()))
                    .set("value", sample.value().deepCopy());
        }
        return output;
    }

    @Override
    public JsonNode toState() {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        ArrayNode list = state.putArray("s");
        for (Sample sample : samples) {
            list.addObject()
                    .put("id", sample.eventId())
                    .put("t", sample.eventTimeMillis())
                    .set("v", sample.value().deepCopy());
        }
        return state;
    }
}
