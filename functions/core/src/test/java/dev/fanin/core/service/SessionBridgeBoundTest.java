package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An event bridging two sessions whose events together pass {@code bounds.maxEventsPerWindow} (onOverflow: split): the
 * earlier session is cut at the bound and the bridge continues it, merging the later one. A review found the bridge
 * refused at every delivery (the merge passed the bound, and a session never splits) until it was redriven.
 */
class SessionBridgeBoundTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final TestClock clock = new TestClock(T0.plusSeconds(3600));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 10m}", "2h",
            "{outOfOrderness: 1h, idleAfter: 3h}", "    bounds: {maxEventsPerWindow: 7, onOverflow: split}\n"
                    + "    aggregations: [{name: ids, type: distinct-ids}]\n"), store, emitter, new RecordingTimers(), clock);
    private final IngestService ingest = new IngestService(engine);
    private int seq;

    @Test
    void aBridgeOverTheBoundCutsTheEarlierSessionAndContinuesIt() throws Exception {
        List<InboundMessage> a = new ArrayList<>();
        List<InboundMessage> b = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            a.add(message("a" + i, i));  // session A: 0..4 s
            b.add(message("b" + i, 1200 + i));  // session B: 20 min later
        }
        assertThat(ingest.handle(a).failedMessageIds()).isEmpty();
        assertThat(ingest.handle(b).failedMessageIds()).isEmpty();

        BatchResult bridged = ingest.handle(List.of(message("bridge", 602)));  // inside A's gap, reaching B

        assertThat(bridged.failedMessageIds()).as("counted at the first delivery").isEmpty();
        SweepService sweep = new SweepService(engine);
        for (int i = 0; i < 360; i++) {
            clock.advance(Duration.ofSeconds(30));
            sweep.sweep(clock.instant().plusSeconds(50));
        }
        assertThat(((RecordingSideOutput) engine.ports().sideOutput()).sideRecords()).isEmpty();
        List<JsonNode> aggregates = new ArrayList<>();
        for (var e : emitter.emitted()) {
            aggregates.add(JSON.readTree(e.detailJson()));
        }
        aggregates.sort((x, y) -> x.path("window").path("start").asText().compareTo(y.path("window").path("start").asText()));
        assertThat(aggregates).extracting(x -> x.path("closeReason").asText()).startsWith("SIZE_LIMIT");
        assertThat(aggregates).extracting(x -> x.path("aggregations").path("ids").path("count").asInt()).containsExactly(5, 6);
        assertThat(aggregates.get(0).path("window").path("end").asText()).as("A cut after its last event").endsWith("10:00:04.001Z");
        assertThat(aggregates.get(1).path("window").path("start").asText()).as("B grown down to the bridge").endsWith("10:10:02.000Z");
        assertThat(store.loadLive("p", "k").sessions()).isEmpty();
    }

    private InboundMessage message(String id, long seconds) {
        return InMemoryEngines.message("m" + seq++, InMemoryEngines.rawEvent("k", id, T0.plusSeconds(seconds)), clock.instant(), 1);
    }

    /** A bridge too late to count merges nothing, so it cuts nothing (a review: A was cut at SIZE_LIMIT, flagged). */
    @Test
    void aBridgeTooLateToCountCutsNothing() throws Exception {
        FaninEngine strict = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 10m}", "2h",
                "{outOfOrderness: 0s, idleAfter: 3h}", "    bounds: {maxEventsPerWindow: 7, onOverflow: split}\n"
                        + "    aggregations: [{name: ids, type: distinct-ids}]\n"), store, emitter, new RecordingTimers(), clock);
        IngestService strictIngest = new IngestService(strict);
        List<InboundMessage> a = new ArrayList<>();
        List<InboundMessage> b = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            a.add(message("a" + i, i));
            b.add(message("b" + i, 1200 + i));
        }
        strictIngest.handle(a);
        strictIngest.handle(b);
        strictIngest.handle(List.of(InMemoryEngines.message("m-other", InMemoryEngines.rawEvent("other", "o", T0.plusSeconds(3000)),
                clock.instant(), 1)));  // the watermark passes both sessions' ends

        BatchResult late = strictIngest.handle(List.of(message("bridge", 602)));

        assertThat(late.failedMessageIds()).isEmpty();
        SweepService sweep = new SweepService(strict);
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofSeconds(30));
            sweep.sweep(clock.instant().plusSeconds(50));
        }
        List<String> reasons = new ArrayList<>();
        for (var e : emitter.emitted()) {
            JsonNode aggregate = JSON.readTree(e.detailJson());
            if (aggregate.path("key").asText().equals("k")) {
                reasons.add(aggregate.path("closeReason").asText());
            }
        }
        assertThat(reasons).containsOnly("SESSION_GAP");
    }
}
