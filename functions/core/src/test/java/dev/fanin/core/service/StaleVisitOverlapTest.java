package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A timer batch takes its processing time once ({@code TimerService.fireAll}); a session A is past its hard deadline by
 * the time its live item is read, and an ingest (deciding at a time past that deadline) has already planned A as cut
 * there and opened B, continuing it, inside A's gap. A visit deciding at the batch's earlier time claimed A by
 * SESSION_GAP without cutting it: A committed with bounds [first, last + gap), overlapping B (invariant I1), and a
 * redelivery of B's event was counted a second time, as a correction of A (a review). A visit now decides no earlier
 * than its read ({@code SessionVisit}).
 */
class StaleVisitOverlapTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore memory = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final RecordingTimers timers = new RecordingTimers();
    private Runnable onLoadLive;
    private final ForwardingWindowStore store = new ForwardingWindowStore(memory) {
        @Override
        public LiveSessions loadLive(String pipeline, String key) {
            Runnable r = onLoadLive;
            onLoadLive = null;
            if (r != null) {
                r.run();
            }
            return super.loadLive(pipeline, key);
        }
    };
    private final FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 1m}", "10m",
            "{outOfOrderness: 0s, idleAfter: 1h}", "    allowedLateness: 1h\n"
                    + "    aggregations: [{name: ids, type: distinct-ids}]\n"), store, emitter, timers, clock);
    private final IngestService ingest = new IngestService(engine);

    @Test
    void aVisitDecidingBeforeTheDeadlineDoesNotCommitASessionOverlappingItsContinuation() throws Exception {
        ingest.handle(List.of(InMemoryEngines.message("m1", InMemoryEngines.rawEvent("k", "a", T0), T0, 1)));
        // Another key moves the watermark past A's end (T0 + 1 min); A's timer is not delivered yet.
        clock.set(T0.plusSeconds(61));
        ingest.handle(List.of(InMemoryEngines.message("m2", InMemoryEngines.rawEvent("other", "o", T0.plusSeconds(61)), clock.instant(), 1)));
        Instant deadline = T0.plus(Duration.ofMinutes(10));
        WindowTimers.Wakeup timerOfA = timers.pending().stream().map(RecordingTimers.Timer::wakeup)
                .filter(w -> w.ref().key().equals("k")).reduce((x, y) -> y).orElseThrow();

        clock.set(deadline.minusMillis(1));  // the timer batch's time
        onLoadLive = () -> {
            // Meanwhile, on another instance: an ingest past A's deadline, an event in A's gap: it opens B continuing A.
            clock.set(deadline.plusMillis(1));
            // (b1 opens B at +40 s, b0 grows it down to +30 s.)
            assertThat(ingest.handle(List.of(InMemoryEngines.message("m5", InMemoryEngines.rawEvent("k", "b1", T0.plusSeconds(40)),
                    clock.instant(), 1))).failedMessageIds()).isEmpty();
            assertThat(ingest.handle(List.of(InMemoryEngines.message("m3", InMemoryEngines.rawEvent("k", "b", T0.plusSeconds(30)),
                    clock.instant(), 1))).failedMessageIds()).isEmpty();
        };
        new TimerService(engine).fireAll(List.of(new WindowTimers.Wakeup(timerOfA.ref(), timerOfA.dueAt(), timerOfA.chain())));

        // B closes by its gap; then B's event is redelivered.
        clock.set(deadline.plusSeconds(5));
        ingest.handle(List.of(InMemoryEngines.message("m4", InMemoryEngines.rawEvent("other", "o2", T0.plusSeconds(200)), clock.instant(), 1)));
        SweepService sweep = new SweepService(engine);
        for (int i = 0; i < 20; i++) {
            clock.advance(Duration.ofSeconds(30));
            sweep.sweep(clock.instant().plusSeconds(50));
        }
        BatchResult redelivered = ingest.handle(List.of(InMemoryEngines.message("m3", InMemoryEngines.rawEvent("k", "b", T0.plusSeconds(30)),
                clock.instant(), 2)));
        for (int i = 0; i < 140; i++) {
            clock.advance(Duration.ofSeconds(30));
            sweep.sweep(clock.instant().plusSeconds(50));
        }

        List<JsonNode> ofK = new ArrayList<>();
        for (var e : emitter.emitted()) {
            JsonNode a = JSON.readTree(e.detailJson());
            if (a.path("key").asText().equals("k")) {
                ofK.add(a);
            }
        }
        List<String> latestIds = new ArrayList<>();
        java.util.Map<String, JsonNode> last = new java.util.TreeMap<>();
        ofK.forEach(a -> last.merge(a.path("window").path("id").asText(), a, (x, y) -> y.path("revision").asInt() > x.path("revision").asInt() ? y : x));
        last.values().forEach(a -> a.path("aggregations").path("ids").path("ids").forEach(id -> latestIds.add(id.asText())));
        assertThat(redelivered.duplicates()).as("the redelivery of b is a duplicate").isEqualTo(1);
        List<JsonNode> sessions = new ArrayList<>(last.values());
        sessions.sort((x, y) -> x.path("window").path("start").asText().compareTo(y.path("window").path("start").asText()));
        for (int i = 1; i < sessions.size(); i++) {
            assertThat(Instant.parse(sessions.get(i).path("window").path("start").asText()))
                    .as("session %s starts after the end of %s", sessions.get(i).path("window"), sessions.get(i - 1).path("window"))
                    .isAfterOrEqualTo(Instant.parse(sessions.get(i - 1).path("window").path("end").asText()));
        }
        assertThat(latestIds).as("each event counted once").doesNotHaveDuplicates();
    }
}
