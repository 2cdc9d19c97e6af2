package dev.fanin.core.machine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SizeBudget;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.IntakeResult;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.text.SinkText;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The load-time size rule is a real bound: for any configuration the loader accepts and any events intake accepts
 * (the longest ids and keys, the characters that escape to the most bytes, the longest numbers, huge payloads), the
 * window's stored state and its emitted aggregate are never larger than {@link SizeBudget} says, so they always fit
 * the DynamoDB item and the emit target.
 */
class SizeBudgetProperties {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    @Provide
    Arbitrary<String> aggregations() {
        Arbitrary<String> one = Arbitraries.oneOf(
                Arbitraries.just("{name: n, type: count}"),
                Arbitraries.of("sum", "min", "max").map(t -> "{name: " + t + ", type: " + t + ", path: $.num}"),
                Combinators.combine(Arbitraries.integers().between(1, 40), Arbitraries.of(16, 64, 300, 2000))
                        .as((cap, bytes) -> "{name: ids, type: distinct-ids, cap: " + cap + ", maxValueBytes: " + bytes + "}"),
                Combinators.combine(Arbitraries.integers().between(1, 40), Arbitraries.of(16, 64, 300, 2000))
                        .as((cap, bytes) -> "{name: vals, type: distinct-values, path: $.text, cap: " + cap + ", maxValueBytes: " + bytes + "}"),
                Combinators.combine(Arbitraries.of("first", "last"), Arbitraries.integers().between(1, 6), Arbitraries.of(16, 200, 4000),
                                Arbitraries.of("", ", path: $.text"))
                        .as((type, n, bytes, path) -> "{name: " + type + ", type: " + type + ", n: " + n + ", maxValueBytes: " + bytes + path + "}"));
        return one.list().ofMinSize(1).ofMaxSize(4).uniqueElements(s -> s.substring(0, s.indexOf(','))).map(l -> "[" + String.join(", ", l) + "]");
    }

    /** Text whose characters take the most bytes as JSON without being refused: quotes, backslashes, U+FFFF, pairs. */
    @Provide
    Arbitrary<String> heavyText() {
        return Arbitraries.strings().withChars('"', '\\', '\uffff', '\ufffe', 'é', 'a', '\u2028').ofMinLength(1).ofMaxLength(300)
                .map(s -> s + "\ud83d\ude80".repeat(s.length() % 3));
    }

    @Property(tries = 60)
    void stateAndAggregateStayWithinTheBudgetTheLoaderChecked(@ForAll("aggregations") String aggregations,
                                                                 @ForAll("heavyText") String text) throws Exception {
        String yaml = "version: 1\npipelines:\n  - name: p\n    key: [$.k]\n    eventId: $.id\n"
                + "    window: {type: tumbling, size: 1h}\n    triggers: {maxLifetime: 2h}\n    bounds: {maxKeyLength: 64}\n"
                + "    aggregations: " + aggregations + "\n";
        PipelineConfig pipeline;
        try {
            pipeline = ConfigLoader.load(yaml, "t").pipelines().get(0);
        } catch (ConfigException rejected) {
            Assume.that(false);
            return;
        }
        MessageIntake intake = new MessageIntake(ConfigLoader.load(yaml, "t"));
        WindowMachine machine = new WindowMachine(pipeline, Duration.ofMinutes(1));
        WindowState state = machine.open(new WindowRef("p", "k", "T0"), new Interval(0, NOW.toEpochMilli() + 3_600_000), NOW);
        String key = keyOf(text, 64);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String id = (i + "-" + text.repeat(1 + 1024 / (text.length() * 2 + 1)));
            id = SinkText.cutToBytes(id, 1024);
            String body = "{\"k\":" + ExactJson.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(key))
                    + ",\"id\":" + ExactJson.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(id))
                    + ",\"num\":" + (i % 2 == 0 ? "-9.99999999999999999999999999999999999999999999999999999999e299" : "1.000000000000000000000000000000000000000000000000000001e-300")
                    + ",\"text\":" + ExactJson.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(SinkText.cutToBytes(text.repeat(i * 20 + 1), 40_000))) + "}";
            IntakeResult r = intake.parse(new InboundMessage("m" + i, body, NOW, NOW));
            assertThat(r.rejected()).as("intake accepts the generated event").isEmpty();
            events.addAll(r.accepted());
        }
        state = machine.ingest(state, events, Long.MIN_VALUE, NOW).next().withVersion(1);
        Transition claimed = machine.tick(state, Long.MIN_VALUE, NOW.plus(Duration.ofHours(2)));
        assertThat(claimed.action()).isEqualTo(Transition.Action.EMIT);

        long stateBytes = SinkText.utf8Length(WindowCodec.encode(claimed.next()).state());
        long aggregateBytes = SinkText.utf8Length(ExactJson.write(claimed.next().claim().emission()));
        assertThat(aggregateBytes).as("aggregate of %s", aggregations).isLessThanOrEqualTo(SizeBudget.aggregateBytes(pipeline));
        assertThat(stateBytes).as("state of %s", aggregations).isLessThanOrEqualTo(SizeBudget.stateBytes(pipeline));
    }

    /** A key part of at most {@code maxBytes} once intake escapes it (a {@code \} or {@code |} takes two). */
    private static String keyOf(String text, int maxBytes) {
        String key = text;
        while (SinkText.utf8Length(key.replace("\\", "\\\\").replace("|", "\\|")) > maxBytes) {
            key = key.substring(0, key.length() - 1);
            if (!key.isEmpty() && Character.isHighSurrogate(key.charAt(key.length() - 1))) {
                key = key.substring(0, key.length() - 1);
            }
        }
        return key.isEmpty() ? "k" : key;
    }
}
