package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A reads the expected count from events ($.of, carried by the first event only); B, published and rolled back (or
 * running beside A during a gradual deployment), configures one. A window that learned 3 under A and was written once
 * by a B function had lost it (B's configured count replaced it in the stored state): back under A it never completed
 * by its count, and members outside B's lower range were deleted. The learned count and every member seen are kept;
 * the configuration in force decides which count applies and which members count (found by a review).
 */
class LearnedCountRollbackTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();

    private static String pipeline(String expected) {
        return InMemoryEngines.rawPipeline("{type: tumbling, size: 1h}", "30m", "{outOfOrderness: 0s, idleAfter: 5m}", "")
                .replace("triggers: {maxLifetime: 30m}", "triggers: {expected: " + expected + ", maxLifetime: 2h}");
    }

    @Test
    void aCountLearnedUnderAOutlivesAVisitUnderB() throws Exception {
        String a = pipeline("{countPath: $.of}");
        FaninEngine engineA = InMemoryEngines.of(a, store, emitter, new RecordingTimers(), clock);
        ingest(engineA, "e1", ",\"of\":3");
        FaninEngine engineB = InMemoryEngines.reconfigured(engineA, pipeline("{count: 5}"));
        clock.advance(Duration.ofSeconds(10));
        ingest(engineB, "e2", "");
        FaninEngine backToA = InMemoryEngines.reconfigured(engineA, a);
        clock.advance(Duration.ofSeconds(10));
        ingest(backToA, "e3", "");
        assertThat(sweptToTheEnd(backToA)).containsExactly("r0 EXPECTED_COMPLETE complete=true seen=3 missing=0");
    }

    @Test
    void aMemberSeenUnderAOutlivesAVisitUnderALowerCount() throws Exception {
        String a = pipeline("{count: 4, memberPath: $.m}");
        FaninEngine engineA = InMemoryEngines.of(a, store, emitter, new RecordingTimers(), clock);
        ingest(engineA, "e0", ",\"m\":0");
        ingest(engineA, "e3", ",\"m\":3");
        FaninEngine engineB = InMemoryEngines.reconfigured(engineA, pipeline("{count: 3, memberPath: $.m}"));
        clock.advance(Duration.ofSeconds(10));
        ingest(engineB, "e1", ",\"m\":1");
        FaninEngine backToA = InMemoryEngines.reconfigured(engineA, a);
        clock.advance(Duration.ofSeconds(10));
        ingest(backToA, "e2", ",\"m\":2");
        assertThat(sweptToTheEnd(backToA)).containsExactly("r0 EXPECTED_COMPLETE complete=true seen=4 missing=0");
    }

    /** Sweeps until every window is past its deadline: the revisions emitted. */
    private List<String> sweptToTheEnd(FaninEngine engine) throws Exception {
        for (int m = 0; m < 130; m++) {
            clock.advance(Duration.ofMinutes(1));
            new SweepService(engine).sweep(clock.instant().plusSeconds(50));
        }
        List<String> out = new ArrayList<>();
        for (var r : emitter.emitted()) {
            JsonNode x = JSON.readTree(r.detailJson());
            out.add("r" + x.path("revision").asInt() + " " + x.path("closeReason").asText() + " complete=" + x.path("complete").asBoolean()
                    + " seen=" + x.path("seen").asInt() + " missing=" + x.path("missingCount").asText());
        }
        return out;
    }

    private void ingest(FaninEngine engine, String id, String more) {
        String body = "{\"k\":\"k\",\"id\":\"" + id + "\",\"t\":" + T0.plusSeconds(1).toEpochMilli() + more + "}";
        new IngestService(engine).handle(List.of(InMemoryEngines.message("m-" + id, body, clock.instant(), 1)));
    }
}
