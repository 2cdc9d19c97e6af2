package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * `triggers.expected` follows the configuration in force at each decision, for windows open at the change too
 * (docs/CONFIGURATION.md). Before, a window kept the configured count it opened with, stored in its state: lowered
 * from 4 to 3, a window holding its 3 events was dead-lettered at its deadline as incomplete; removed, a window still
 * closed by the count as EXPECTED_COMPLETE (flagged incomplete, then a correction); added, it never became complete.
 */
class ExpectedCountChangeTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOLD = "    incomplete: {policy: hold, atDeadline: dead-letter}\n";

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();

    private static String pipeline(String triggers, String more) {
        return InMemoryEngines.rawPipeline("{type: tumbling, size: 1h}", "30m", "{outOfOrderness: 0s, idleAfter: 5m}", more)
                .replace("triggers: {maxLifetime: 30m}", "triggers: " + triggers);
    }

    @Test
    void aLowerExpectedCountCompletesAWindowOpenAtTheChange() throws Exception {
        FaninEngine old = InMemoryEngines.of(pipeline("{expected: {count: 4}, maxLifetime: 30m}", HOLD), store, emitter, new RecordingTimers(), clock);
        ingest(old, "e1");
        ingest(old, "e2");
        FaninEngine changed = InMemoryEngines.reconfigured(old, pipeline("{expected: {count: 3}, maxLifetime: 30m}", HOLD));
        clock.advance(Duration.ofMinutes(1));
        ingest(changed, "e3");
        sweepFor(changed, Duration.ofMinutes(40));

        assertThat(closes()).containsExactly("r0 EXPECTED_COMPLETE complete=true seen=3");
        assertThat(((RecordingSideOutput) changed.ports().sideOutput()).deadLetters()).isEmpty();
    }

    @Test
    void aRemovedExpectedCountNoLongerClosesAWindowOpenAtTheChange() throws Exception {
        FaninEngine old = InMemoryEngines.of(pipeline("{expected: {count: 3}, maxLifetime: 2h}", ""), store, emitter, new RecordingTimers(), clock);
        ingest(old, "e1");
        ingest(old, "e2");
        FaninEngine changed = InMemoryEngines.reconfigured(old, pipeline("{maxLifetime: 2h}", ""));
        clock.advance(Duration.ofMinutes(1));
        ingest(changed, "e3");
        ingest(changed, "e4");
        sweepFor(changed, Duration.ofMinutes(130));

        assertThat(closes()).containsExactly("r0 WATERMARK complete=true seen=4");
    }

    @Test
    void anAddedExpectedCountCompletesAWindowOpenAtTheChange() throws Exception {
        FaninEngine old = InMemoryEngines.of(pipeline("{maxLifetime: 2h}", ""), store, emitter, new RecordingTimers(), clock);
        ingest(old, "e1");
        FaninEngine changed = InMemoryEngines.reconfigured(old, pipeline("{expected: {count: 2}, maxLifetime: 2h}", ""));
        clock.advance(Duration.ofMinutes(1));
        ingest(changed, "e2");

        assertThat(closes()).containsExactly("r0 EXPECTED_COMPLETE complete=true seen=2");
    }

    private void ingest(FaninEngine engine, String id) {
        new IngestService(engine).handle(List.of(InMemoryEngines.message("m-" + id, InMemoryEngines.rawEvent("k", id, T0.plusSeconds(1)),
                clock.instant(), 1)));
    }

    private void sweepFor(FaninEngine engine, Duration total) {
        for (long m = 0; m < total.toMinutes(); m++) {
            clock.advance(Duration.ofMinutes(1));
            new SweepService(engine).sweep(clock.instant().plusSeconds(50));
        }
    }

    private List<String> closes() throws Exception {
        List<String> out = new ArrayList<>();
        for (var r : emitter.emitted()) {
            JsonNode a = JSON.readTree(r.detailJson());
            out.add("r" + a.path("revision").asInt() + " " + a.path("closeReason").asText() + " complete=" + a.path("complete").asBoolean()
                    + " seen=" + a.path("seen").asInt());
        }
        return out;
    }
}
