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
 * A session cut short by maxLifetime ends just after the last event it took, and a sentinel that does not count as an
 * event is one it took, though {@code lastEventTime} leaves it out (docs/SEMANTICS.md, "The aggregate, field by
 * field"). Found by OutageSimulationTest (seeds 11 and 22, file-uploads): the cut froze the session just after its
 * last counted event, so its manifest lay outside the emitted window, and a redelivered manifest would have opened a
 * continuation and set its expected count a second time.
 */
class SessionCutAfterSentinelTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T08:13:00Z");
    private static final String PIPELINE = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
            + "    eventTime: {path: $.t}\n    window: {type: session, gap: 1m}\n"
            + "    triggers:\n      maxLifetime: 5m\n      sentinel:\n        when: {path: $.id, matches: 'manifest-\\d+'}\n"
            + "        expectedCount: {path: $.id, extract: 'manifest-(\\d+)$'}\n        countsAsEvent: false\n"
            + "    incomplete: {policy: hold, atDeadline: fire-flagged}\n"
            + "    watermark: {outOfOrderness: 0s, idleAfter: 5s}\n    allowedLateness: 10m\n"
            + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";

    private final TestClock clock = new TestClock(T0);
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final FaninEngine engine = InMemoryEngines.of(PIPELINE, new InMemoryWindowStore(4), emitter, new RecordingTimers(), clock);
    private final IngestService ingest = new IngestService(engine);

    @Test
    void theCutSessionEndsAfterItsManifestAndARedeliveredManifestIsADuplicate() throws Exception {
        send("m1", "a", 0);
        send("m2", "manifest-3", 20_000);
        clock.set(T0.plus(Duration.ofMinutes(6)));
        new SweepService(engine).sweep(clock.instant().plusSeconds(50));

        List<JsonNode> emitted = emitted();
        assertThat(emitted).singleElement().satisfies(a -> {
            assertThat(a.path("closeReason").asText()).isEqualTo("HARD_LIFETIME");
            assertThat(a.path("expected").asInt()).isEqualTo(3);
            assertThat(a.path("lastEventTime").asText()).as("the manifest is not an event").isEqualTo("2026-11-29T08:13:00.000Z");
            assertThat(a.path("window").path("end").asText()).as("just after the manifest").isEqualTo("2026-11-29T08:13:20.001Z");
        });

        send("m2", "manifest-3", 20_000);
        clock.set(clock.instant().plus(Duration.ofMinutes(10)));
        new SweepService(engine).sweep(clock.instant().plusSeconds(50));
        assertThat(emitted()).as("no continuation made of the redelivered manifest").hasSize(1);
    }

    private void send(String messageId, String id, long offsetMillis) {
        Instant t = T0.plusMillis(offsetMillis);
        if (t.isAfter(clock.instant())) {
            clock.set(t);
        }
        assertThat(ingest.handle(List.of(InMemoryEngines.message(messageId, InMemoryEngines.rawEvent("k", id, t), clock.instant(), 1)))
                .failedMessageIds()).isEmpty();
    }

    private List<JsonNode> emitted() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (var e : emitter.emitted()) {
            out.add(JSON.readTree(e.detailJson()));
        }
        return out;
    }
}
