package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.text.IsoMillis;
import dev.fanin.core.event.Event;
import dev.fanin.core.text.ExactJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The first or last {@code n} events ordered by (event time, event id), each with its value (the field at
 * {@code path}, JSON null when absent; the whole payload when {@code path} is null). A value of more than
 * {@code maxValueBytes} of JSON is <em>trimmed</em>: the sample keeps the event's id and time, its value is null and
 * it says {@code trimmed}. Whether a value is trimmed depends on the value alone, so merges stay order-free.
 * Idempotent: re-adding an event that is kept changes nothing, and one that is not kept is dropped again.
 */
record SamplesAccumulator(boolean last, int n, FieldPath path, int maxValueBytes, List<Sample> samples) implements Accumulator {

    /** One kept event. Ordered by event time, then event id. */
    record Sample(String eventId, long eventTimeMillis, JsonNode value, boolean trimmed) {

        static final Comparator<Sample> ORDER = Comparator.comparingLong(Sample::eventTimeMillis).thenComparing(Sample::eventId);

        Sample {
            Objects.requireNonNull(eventId, "eventId");
            Objects.requireNonNull(value, "value");
        }

        /** The sample of {@code value}, trimmed when its JSON takes more than {@code maxValueBytes}. */
        static Sample of(String eventId, long eventTimeMillis, JsonNode value, int maxValueBytes) {
            return ExactJson.bytes(value) > maxValueBytes
                    ? new Sample(eventId, eventTimeMillis, NullNode.getInstance(), true)
                    : new Sample(eventId, eventTimeMillis, value, false);
        }
    }

    SamplesAccumulator {
        samples = List.copyOf(samples);
    }

    static SamplesAccumulator empty(boolean last, int n, FieldPath path, int maxValueBytes) {
        return new SamplesAccumulator(last, n, path, maxValueBytes, List.of());
    }

    /** Decodes {@link #toState}, trimming what the current bounds do not take (a configuration may have lowered them). */
    static SamplesAccumulator fromState(boolean last, int n, FieldPath path, int maxValueBytes, JsonNode state) {
        List<Sample> samples = new ArrayList<>();
        for (JsonNode s : state.path("s")) {
            Sample sample = Sample.of(s.path("id").textValue(), s.path("t").longValue(), s.has("v") ? s.get("v") : NullNode.getInstance(),
                    maxValueBytes);
            samples.add(s.path("tr").booleanValue() ? new Sample(sample.eventId(), sample.eventTimeMillis(), NullNode.getInstance(), true) : sample);
        }
        return empty(last, n, path, maxValueBytes).withSamples(samples);
    }

    @Override
    public Accumulator add(Event event) {
        JsonNode value = path == null ? event.payload() : EventFields.read(path, event);
        Sample untrimmed = new Sample(event.eventId(), event.eventTime().toEpochMilli(), value.isMissingNode() ? NullNode.getInstance() : value, false);
        for (Sample kept : samples) {
            if (Sample.ORDER.compare(kept, untrimmed) == 0) {
                return this;
            }
        }
        if (samples.size() == n && (last ? Sample.ORDER.compare(untrimmed, samples.get(0)) < 0 : Sample.ORDER.compare(untrimmed, samples.get(n - 1)) > 0)) {
            return this; // not among the n kept: no need to measure its value
        }
        Sample sample = Sample.of(untrimmed.eventId(), untrimmed.eventTimeMillis(), untrimmed.value(), maxValueBytes);
        return withSamples(SortedCapped.union(samples, List.of(sample)));
    }

    @Override
    public Accumulator merge(Accumulator other) {
        if (!(other instanceof SamplesAccumulator that) || that.last != last || that.n != n || that.maxValueBytes != maxValueBytes
                || !Objects.equals(that.path, path)) {
            throw new IllegalArgumentException("cannot merge samples " + this + " with " + other);
        }
        return withSamples(SortedCapped.union(samples, that.samples));
    }

    private SamplesAccumulator withSamples(List<Sample> all) {
        List<Sample> kept = last ? SortedCapped.largest(all, Sample.ORDER, n) : SortedCapped.smallest(all, Sample.ORDER, n);
        return new SamplesAccumulator(last, n, path, maxValueBytes, kept);
    }

    @Override
    public JsonNode toOutput() {
        ArrayNode output = JsonNodeFactory.instance.arrayNode();
        for (Sample sample : samples) {
            ObjectNode item = output.addObject()
                    .put("eventId", sample.eventId())
                    .put("eventTime", IsoMillis.format(sample.eventTimeMillis()));
            item.set("value", sample.value().deepCopy());
            if (sample.trimmed()) {
                item.put("trimmed", true);
            }
        }
        return output;
    }

    @Override
    public JsonNode toState() {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        ArrayNode list = state.putArray("s");
        for (Sample sample : samples) {
            ObjectNode item = list.addObject()
                    .put("id", sample.eventId())
                    .put("t", sample.eventTimeMillis());
            item.set("v", sample.value().deepCopy());
            if (sample.trimmed()) {
                item.put("tr", true);
            }
        }
        return state;
    }
}
