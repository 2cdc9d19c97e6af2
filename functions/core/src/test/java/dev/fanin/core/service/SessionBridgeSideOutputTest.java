package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * onOverflow: side-output. Sessions A (5 events) and B (5 events), bound 7. An event z inside B alone is counted, also
 * in the same batch as an event bridging A and B whose merge would pass the bound: only the bridge goes to the side
 * output (WINDOW_FULL). Before (a review), every event of the merge's target was refused with it, so whether z counted
 * depended on how SQS batched it (session rule 8).
 */
class SessionBridgeSideOutputTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final TestClock clock = new TestClock(T0.plusSeconds(3600));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private RecordingSideOutput side;
    private int seq;

    private IngestService ingest() {
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 10m}", "2h",
                "{outOfOrderness: 1h, idleAfter: 3h}", "    bounds: {maxEventsPerWindow: 7, onOverflow: side-output}\n"),
                store, new RecordingEmitter(), new RecordingTimers(), clock);
        side = (RecordingSideOutput) engine.ports().sideOutput();
        return new IngestService(engine);
    }

    @Test
    void anEventThatFitsItsSessionIsNotRefusedBecauseABridgeCameInTheSameBatch() {
        IngestService ingest = sessionsOfFive();

        BatchResult r = ingest.handle(List.of(message("bridge", 602), message("z", 1210)));

        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(side.sideRecords()).extracting(rec -> rec.toString())
                .as("only the bridge is refused; z fits B (5 < 7)").noneMatch(s -> s.contains("\"z\"")).anyMatch(s -> s.contains("\"bridge\""));
        assertThat(store.loadLive("p", "k").sessions()).extracting(w -> w.eventIds().size()).as("A, and B with z").containsExactly(5, 6);
    }

    /** Two events that bridge A and B only together (a chain): both are refused, and the batch ends. */
    @Test
    void aChainOfEventsThatBridgesOnlyTogetherIsRefusedWhole() {
        IngestService ingest = sessionsOfFive();

        BatchResult r = ingest.handle(List.of(message("near-a", 500), message("near-b", 700)));

        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(side.sideRecords()).extracting(rec -> rec.toString()).as("the merge they make would not fit")
                .anyMatch(s -> s.contains("\"near-a\"")).anyMatch(s -> s.contains("\"near-b\""));
        assertThat(store.loadLive("p", "k").sessions()).extracting(w -> w.eventIds().size()).containsExactly(5, 5);
    }

    /** Sessions A (events at 0-4 s) and B (1,200-1,204 s), five events each, 20 minutes apart: a bridge merges them. */
    private IngestService sessionsOfFive() {
        IngestService ingest = ingest();
        List<InboundMessage> a = new ArrayList<>();
        List<InboundMessage> b = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            a.add(message("a" + i, i));
            b.add(message("b" + i, 1200 + i));
        }
        ingest.handle(a);
        ingest.handle(b);
        return ingest;
    }

    private InboundMessage message(String id, long seconds) {
        return InMemoryEngines.message("m" + seq++, InMemoryEngines.rawEvent("k", id, T0.plusSeconds(seconds)), clock.instant(), 1);
    }
}
