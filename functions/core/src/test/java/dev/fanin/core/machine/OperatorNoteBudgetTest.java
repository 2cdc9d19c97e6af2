package dev.fanin.core.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SizeBudget;
import dev.fanin.core.emit.AggregateEvent;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.text.SinkText;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An operator's close with the longest note it takes stays within the sizes the loader checked the pipeline against
 * (a review: a note of 1,000 U+FFFF, each escaped to six bytes of JSON, made a 6,599-byte aggregate against a budget of
 * 1,847). Notes are now characters every sink takes as they are, at most three bytes each, and the budget counts them.
 */
class OperatorNoteBudgetTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = "version: 1\npipelines:\n  - name: p\n    key: [$.k]\n    eventId: $.id\n"
            + "    window: {type: tumbling, size: 1h}\n    triggers: {maxLifetime: 2h}\n    bounds: {maxKeyLength: 64}\n"
            + "    aggregations: [{name: n, type: count}]\n";
    private final PipelineConfig pipeline = ConfigLoader.load(YAML, "t").pipelines().get(0);
    private final WindowMachine machine = new WindowMachine(pipeline, Duration.ofMinutes(1));

    @ParameterizedTest(name = "1000 x U+{0}")
    @ValueSource(strings = {"20ac", "0022", "005c", "d7ff"})
    void anOperatorCloseWithTheWidestNoteStaysWithinTheBudget(String hex) throws Exception {
        String note = String.valueOf((char) Integer.parseInt(hex, 16)).repeat(AggregateEvent.MAX_NOTE_CHARS);
        assertThat(AggregateEvent.isNote(note)).isTrue();

        Transition closed = machine.closeByOperator(windowOfOneEvent(), note, Long.MIN_VALUE, NOW.plusSeconds(60));

        assertThat(closed.action()).isEqualTo(Transition.Action.EMIT);
        assertThat((long) SinkText.utf8Length(ExactJson.write(closed.next().claim().emission())))
                .as("emitted aggregate").isLessThanOrEqualTo(SizeBudget.aggregateBytes(pipeline));
        assertThat((long) SinkText.utf8Length(WindowCodec.encode(closed.next()).state()))
                .as("stored state").isLessThanOrEqualTo(SizeBudget.stateBytes(pipeline));
    }

    @ParameterizedTest(name = "U+{0}")
    @ValueSource(strings = {"ffff", "fffe", "d800", "0007"})
    void aNoteOfACharacterASinkWouldNotTakeAsItIsIsRefused(String hex) {
        String note = "closing: " + (char) Integer.parseInt(hex, 16);
        WindowState window = windowOfOneEvent();

        assertThat(AggregateEvent.isNote(note)).isFalse();
        assertThatThrownBy(() -> machine.closeByOperator(window, note, Long.MIN_VALUE, NOW.plusSeconds(60)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(AggregateEvent.NOTE_RULE);
    }

    private WindowState windowOfOneEvent() {
        WindowState state = machine.open(new WindowRef("p", "k", "T0"), new Interval(0, NOW.toEpochMilli() + 3_600_000), NOW);
        List<Event> events = new MessageIntake(ConfigLoader.load(YAML, "t"))
                .parse(new InboundMessage("m1", "{\"k\":\"k\",\"id\":\"e1\"}", NOW, NOW)).accepted();
        return machine.ingest(state, events, Long.MIN_VALUE, NOW).next().withVersion(1);
    }
}
