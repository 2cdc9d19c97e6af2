package dev.fanin.core.aggregate;

import static dev.fanin.core.trigger.EventFixture.event;
import static dev.fanin.core.trigger.EventFixture.json;
import static dev.fanin.core.trigger.PipelineFixture.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.AggregationSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.text.ExactJson;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AggregatesTest {

    /** JSON text without insignificant whitespace, to compare with an aggregate's output text. */
    private static String compact(String jsonText) {
        return json(jsonText).toString();
    }

    private static Aggregates addAll(List<AggregationSpec> specs, Event... events) {
        Aggregates aggregates = Aggregates.empty(specs);
        for (Event e : events) {
            aggregates = aggregates.add(e);
        }
        return aggregates;
    }

    @Test
    void countAndDistinctIds() {
        List<AggregationSpec> specs = List.of(new AggregationSpec.Count("n"), new AggregationSpec.DistinctIds("ids", 2));

        Aggregates a = addAll(specs, event("c", 1), event("a", 2), event("b", 3));

        assertThat(a.toOutput().toString()).isEqualTo(compact("{\"n\":3,\"ids\":{\"count\":3,\"ids\":[\"a\",\"b\"]}}"));
    }

    @Test
    void sumMinMaxAreExactAndSkipNonNumbers() {
        List<AggregationSpec> specs = List.of(new AggregationSpec.Sum("sum", path("$.v")), new AggregationSpec.Min("min", path("$.v")),
                new AggregationSpec.Max("max", path("$.v")));

        Aggregates a = addAll(specs, event("1", 1, "{\"v\":0.1}"), event("2", 2, "{\"v\":0.2}"), event("3", 3, "{\"v\":\"7\"}"),
                event("4", 4, "{}"), event("5", 5, "{\"v\":-3}"));

        assertThat(a.toOutput().toString())
                .isEqualTo("{\"sum\":{\"value\":-2.7,\"skipped\":2},\"min\":{\"value\":-3,\"skipped\":2},\"max\":{\"value\":0.2,\"skipped\":2}}");
    }

    @Test
    void numericWithoutAnyNumberIsNull() {
        Aggregates a = addAll(List.of(new AggregationSpec.Sum("sum", path("$.v"))), event("1", 1, "{\"v\":null}"));

        assertThat(a.toOutput().toString()).isEqualTo(compact("{\"sum\":{\"value\":null,\"skipped\":1}}"));
    }

    @Test
    void firstAndLastNByEventTimeThenId() {
        List<AggregationSpec> specs = List.of(new AggregationSpec.FirstN("first", 2, path("$.r")), new AggregationSpec.LastN("last", 1, null));

        Aggregates a = addAll(specs, event("b", 5_000, "{\"r\":\"x\"}"), event("a", 5_000, "{\"r\":\"y\"}"), event("z", 1_000, "{}"),
                event("late", 9_000, "{\"r\":1}"));

        assertThat(a.toOutput().toString()).isEqualTo(compact("""
                {"first":[{"eventId":"z","eventTime":"1970-01-01T00:00:01.000Z","value":null},
                          {"eventId":"a","eventTime":"1970-01-01T00:00:05.000Z","value":"y"}],
                 "last":[{"eventId":"late","eventTime":"1970-01-01T00:00:09.000Z","value":{"r":1}}]}"""));
    }

    @Test
    void distinctValuesSortedAndTruncated() {
        List<AggregationSpec> specs = List.of(new AggregationSpec.DistinctValues("regions", path("$.region"), 2));

        Aggregates a = addAll(specs, event("1", 1, "{\"region\":\"us-east-1\"}"), event("2", 2, "{\"region\":\"eu-west-1\"}"),
                event("3", 3, "{\"region\":\"us-east-1\"}"), event("4", 4, "{}"), event("5", 5, "{\"region\":\"ap-south-1\"}"));

        assertThat(a.toOutput().toString()).isEqualTo(compact("{\"regions\":{\"values\":[\"ap-south-1\",\"eu-west-1\"],\"truncated\":true}}"));
    }

    /**
     * A value is its text, a number its decimal digits, as match rules and keys read it (a review: 1e2 was listed as
     * "1E+2" beside "100", and 1e-7 as "1E-7"). Payloads are read as intake reads them, numbers exact.
     */
    @Test
    void distinctValuesListANumberByItsDecimalDigits() throws Exception {
        List<AggregationSpec> specs = List.of(new AggregationSpec.DistinctValues("v", path("$.v"), 10));
        Aggregates a = Aggregates.empty(specs);
        int i = 0;
        for (String v : List.of("100", "1e2", "\"100\"", "100.0", "1e-7", "true")) {
            a = a.add(new Event("test-pipe", "key-1", "e" + i, Instant.ofEpochMilli(i), false, Instant.ofEpochMilli(i),
                    ExactJson.read("{\"v\":" + v + "}"), MissingNode.getInstance(), "m" + i++));
        }

        assertThat(a.toOutput().toString()).isEqualTo(compact("{\"v\":{\"values\":[\"0.0000001\",\"100\",\"100.0\",\"true\"],\"truncated\":false}}"));
    }

    @Test
    void aSampleValueOverMaxValueBytesIsTrimmedAndFlaggedTheRestKept() {
        List<AggregationSpec> specs = List.of(new AggregationSpec.LastN("last", 3, null, 64));

        Aggregates a = addAll(specs, event("small", 1_000, "{\"r\":\"x\"}"),
                event("big", 2_000, "{\"r\":\"" + "y".repeat(100) + "\"}"),
                event("exact", 3_000, "{\"r\":\"" + "z".repeat(56) + "\"}"));

        assertThat(a.toOutput().toString()).isEqualTo(compact("""
                {"last":[{"eventId":"small","eventTime":"1970-01-01T00:00:01.000Z","value":{"r":"x"}},
                         {"eventId":"big","eventTime":"1970-01-01T00:00:02.000Z","value":null,"trimmed":true},
                         {"eventId":"exact","eventTime":"1970-01-01T00:00:03.000Z","value":{"r":"%s"}}]}""".formatted("z".repeat(56))));
        assertThat(Aggregates.fromState(specs, a.toState())).as("trimmed survives the state").isEqualTo(a);
    }

    @Test
    void aValueOrIdLongerThanMaxValueBytesIsCountedButNotListed() {
        // "aaaa" takes 6 bytes as JSON, "bbbbbbbb" 10: with maxValueBytes 8 only the short ones are listed.
        List<AggregationSpec> specs = List.of(new AggregationSpec.DistinctValues("v", path("$.v"), 10, 8),
                new AggregationSpec.DistinctIds("ids", 10, 8));

        Aggregates a = addAll(specs, event("cccc", 3, "{\"v\":\"cccc\"}"), event("aaaa", 1, "{\"v\":\"aaaa\"}"),
                event("bbbbbbbb", 2, "{\"v\":\"bbbbbbbb\"}"));

        assertThat(a.toOutput().toString()).isEqualTo(compact("""
                {"v":{"values":["aaaa","cccc"],"truncated":true},"ids":{"count":3,"ids":["aaaa","cccc"]}}"""));
    }

    @Test
    void aStateWrittenUnderLargerBoundsIsCutToTheCurrentOnesWhenRead() {
        List<AggregationSpec> generous = List.of(new AggregationSpec.DistinctValues("v", path("$.v"), 10, 1000),
                new AggregationSpec.LastN("s", 2, path("$.v"), 1000));
        List<AggregationSpec> tight = List.of(new AggregationSpec.DistinctValues("v", path("$.v"), 2, 6),
                new AggregationSpec.LastN("s", 2, path("$.v"), 5));
        Event[] events = {event("1", 1, "{\"v\":\"aaaa\"}"), event("2", 2, "{\"v\":\"bbbbb\"}"), event("3", 3, "{\"v\":\"cccc\"}")};

        Aggregates after = Aggregates.fromState(tight, addAll(generous, events).toState());

        assertThat(after).isEqualTo(addAll(tight, events));
        assertThat(after.toOutput().path("v").toString()).isEqualTo("{\"values\":[\"aaaa\",\"cccc\"],\"truncated\":true}");
        assertThat(after.toOutput().path("s").get(0).path("trimmed").asBoolean()).isTrue();
    }

    @Test
    void stateStartsEmptyForAnAggregationAddedOrRetyped() {
        List<AggregationSpec> before = List.of(new AggregationSpec.Count("n"));
        List<AggregationSpec> after = List.of(new AggregationSpec.DistinctIds("n", 5), new AggregationSpec.Count("m"));

        Aggregates restored = Aggregates.fromState(after, addAll(before, event("a", 1)).toState());

        assertThat(restored).isEqualTo(Aggregates.empty(after));
    }

    /** A sum of another field is another aggregation: carrying the old sum on would add two different quantities. */
    @Test
    void stateStartsEmptyForAnAggregationThatReadsAnotherField() {
        List<AggregationSpec> before = List.of(new AggregationSpec.Sum("total", path("$.rows")), new AggregationSpec.LastN("s", 2, path("$.rows")),
                new AggregationSpec.FirstN("f", 2, null), new AggregationSpec.DistinctValues("v", path("$.rows"), 5));
        List<AggregationSpec> after = List.of(new AggregationSpec.Sum("total", path("$.ms")), new AggregationSpec.LastN("s", 2, null),
                new AggregationSpec.FirstN("f", 2, path("$.rows")), new AggregationSpec.DistinctValues("v", path("$.ms"), 5));

        Aggregates restored = Aggregates.fromState(after, addAll(before, event("a", 1, "{\"rows\":7,\"ms\":3}")).toState());

        assertThat(restored).isEqualTo(Aggregates.empty(after));
    }

    /** A state written before the field read was stored (no {@code "p"}) keeps its value under the same kind. */
    @Test
    void aStateWithoutTheFieldReadKeepsItsValue() {
        List<AggregationSpec> specs = List.of(new AggregationSpec.Sum("total", path("$.rows")));
        Aggregates written = addAll(specs, event("a", 1, "{\"rows\":7}"));
        ObjectNode older = written.toState();
        assertThat(older.path("total").path("p").asText()).isEqualTo("$.rows");
        ((ObjectNode) older.path("total")).remove("p");

        assertThat(Aggregates.fromState(specs, older)).isEqualTo(written);
    }

    @Test
    void mergeRequiresTheSameAggregations() {
        Aggregates a = Aggregates.empty(List.of(new AggregationSpec.Count("n")));
        Aggregates b = Aggregates.empty(List.of(new AggregationSpec.Count("m")));

        assertThatThrownBy(() -> a.merge(b)).isInstanceOf(IllegalArgumentException.class);
    }
}
