package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A too-late verdict for a time window that was never written: every event of it so far was too late, so there was no
 * window to keep the verdict in, and the original of a late copy, delivered later to a watermark capped at its own send
 * time, opened the window and was counted after the copy had gone to the side output. The verdict now writes the
 * window, closed without an emission and holding no open-window slot: a later copy meets it, and an event in time for
 * the window by its own watermark still opens it, as its first revision.
 */
class TooLateUnwrittenWindowTest extends TooLateFixture {

    private final InMemoryWindowStore memory = new InMemoryWindowStore(4);

    @Test
    void theOriginalOfAnEventTooLateForAWindowNeverWrittenIsTooLateAsWell() {
        IngestService ingest = new IngestService(engine(memory));
        BatchResult copy = lateCopyOfE1(ingest);
        assertThat(copy.tooLate()).isEqualTo(1);

        BatchResult original = deliver(ingest, "orig", "e1", T0.plusSeconds(20), T0.plusSeconds(21), 2);
        settle();

        assertThat(original.tooLate()).as("the original meets the copy's verdict").isEqualTo(1);
        assertThat(reportsOf("e1")).as("each copy reported").isEqualTo(2);
        assertThat(emittedFor("a")).as("nothing of the window was ever counted").isEmpty();
    }

    @Test
    void theWindowKeepingTheVerdictIsClosedDueNowhereAndHoldsNoSlot() {
        lateCopyOfE1(new IngestService(engine(memory)));

        List<StoredWindow> windows = memory.all().stream().filter(w -> w.ref().key().equals("a")).toList();
        assertThat(windows).hasSize(1);
        var state = engine(memory).decode(windows.get(0));
        assertThat(state.status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(state.dueAt()).isNull();
        assertThat(state.timer()).isNull();
        assertThat(state.revisionEvents()).isZero();
        assertThat(memory.openWindows("p")).as("only key b's window holds a slot").isEqualTo(1);
    }

    @Test
    void anEventInTimeForThatWindowByItsOwnWatermarkStillOpensIt() {
        IngestService ingest = new IngestService(engine(memory));
        lateCopyOfE1(ingest);

        BatchResult inTime = deliver(ingest, "m2", "e2", T0.plusSeconds(30), T0.plusSeconds(31), 2);
        assertThat(memory.openWindows("p")).as("it opens, taking a slot as a new window does").isEqualTo(2);
        settle();

        assertThat(inTime.eventsAccepted()).isEqualTo(1);
        List<JsonNode> aggregates = emittedFor("a");
        assertThat(aggregates).hasSize(1);
        JsonNode first = aggregates.get(0);
        assertThat(first.path("revision").asInt()).isZero();
        assertThat(first.path("corrects").isNull()).as("it corrects nothing: nothing was emitted before").isTrue();
        assertThat(first.path("aggregations").path("n").asInt()).isEqualTo(1);
    }

    /**
     * The write that keeps the verdict loses to another invocation creating the window with the original counted: the
     * copy, decided again, is a duplicate and is never reported.
     */
    @Test
    void aVerdictWhoseCreationLosesToTheOriginalIsNeverReported() {
        boolean[] armed = {false};
        IngestService other = new IngestService(engine(memory));
        WindowStore racing = new ForwardingWindowStore(memory) {
            @Override
            public WriteOutcome create(StoredWindow window) {
                if (armed[0] && window.ref().key().equals("a")) {
                    armed[0] = false;
                    deliver(other, "orig", "e1", T0.plusSeconds(20), T0.plusSeconds(21), 2);
                }
                return super.create(window);
            }
        };
        IngestService ingest = new IngestService(engine(racing));
        advanceTheWatermark(ingest);
        armed[0] = true;
        BatchResult copy = deliver(ingest, "dup", "e1", T0.plusSeconds(20), clock.instant(), 1);
        settle();

        assertThat(copy.duplicates()).as("the original counted it first").isEqualTo(1);
        assertThat(reportsOf("e1")).isZero();
        assertThat(emittedFor("a")).hasSize(1);
        assertThat(emittedFor("a").get(0).path("aggregations").path("n").asInt()).isEqualTo(1);
    }

    /** Key b takes the watermark past [10:00, 10:01) and its lateness; e1's copy, resent then, is too late. */
    private BatchResult lateCopyOfE1(IngestService ingest) {
        advanceTheWatermark(ingest);
        return deliver(ingest, "dup", "e1", T0.plusSeconds(20), clock.instant(), 1);
    }

    private void advanceTheWatermark(IngestService ingest) {
        clock.set(T0.plus(Duration.ofMinutes(5)));
        String body = "{\"k\":\"b\",\"id\":\"x\",\"t\":" + clock.instant().minusSeconds(5).toEpochMilli() + "}";
        ingest.handle(List.of(new InboundMessage("mx", body, 1, clock.instant(), clock.instant(), Map.of())));
    }

    /** Sweeps until every correction delay and watermark has passed. */
    private void settle() {
        FaninEngine engine = engine(memory);
        for (int i = 0; i < 12; i++) {
            clock.advance(Duration.ofMinutes(1));
            new SweepService(engine).sweep(clock.instant().plusSeconds(50));
        }
    }
}
