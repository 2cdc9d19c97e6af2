package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
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
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A correction is as complete as the close it corrects: for a pipeline that does not know completeness, a correction
 * of a COUNT, WATERMARK or SESSION_GAP close is complete, one of a HARD_LIFETIME close is not (docs/SEMANTICS.md,
 * "What complete means").
 */
class CorrectionCompletenessTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T08:13:00Z");

    static Stream<Arguments> closes() {
        return Stream.of(
                // One event every 7 s for 133 s into a 20 s session with a 2 min lifetime: cut at 2 min (the events after
                // the cut open a session that continues it), then one out of order inside the cut session: its correction.
                Arguments.of("session cut by its hard lifetime", "{type: session, gap: 20s}", 7, 133, "HARD_LIFETIME", false),
                // Three events, then one the watermark already passed: the correction of an event-time close.
                Arguments.of("session closed by its gap", "{type: session, gap: 20s}", 30, 0, "SESSION_GAP", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("closes")
    void aCorrectionIsAsCompleteAsTheCloseItCorrects(String name, String window, int everySeconds, int forSeconds,
                                                      String firstReason, boolean complete) throws Exception {
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
        FaninEngine engine = InMemoryEngines.of(pipeline(window), new InMemoryWindowStore(4), emitter, new RecordingTimers(), clock);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);

        List<Instant> times = new ArrayList<>();
        for (int s = 0; s <= forSeconds; s += everySeconds) {
            times.add(T0.plusSeconds(s));
        }
        if (forSeconds == 0) {
            times.add(T0.plusSeconds(1));
            times.add(T0.plusSeconds(2));
        }
        int n = 0;
        for (Instant t : times) {
            clock.set(t);
            ingest.handle(List.of(InMemoryEngines.message("m" + n, InMemoryEngines.rawEvent("k", "e" + n, t), t, 1)));
            sweep.sweep(t.plusSeconds(60));
            n++;
        }
        if (forSeconds == 0) {
            // Past the session's end (2 s + 20 s gap) with the watermark idle-advanced: SESSION_GAP.
            clock.set(T0.plusSeconds(40));
            sweep.sweep(clock.instant().plusSeconds(60));
        }
        // An event inside the first session, after its close and within the allowed lateness: a correction.
        Instant late = clock.instant().plusSeconds(1);
        clock.set(late);
        ingest.handle(List.of(InMemoryEngines.message("late", InMemoryEngines.rawEvent("k", "late", T0.plusSeconds(3)), late, 1)));
        for (int i = 0; i < 20; i++) {
            clock.advance(Duration.ofSeconds(10));
            sweep.sweep(clock.instant().plusSeconds(60));
        }

        List<JsonNode> revisions = new ArrayList<>();
        String firstSession = null;
        for (var e : emitter.emitted()) {
            JsonNode a = JSON.readTree(e.detailJson());
            firstSession = firstSession == null ? a.path("window").path("id").asText() : firstSession;
            if (a.path("window").path("id").asText().equals(firstSession)) {
                revisions.add(a);
            }
        }
        assertThat(revisions).extracting(r -> r.path("closeReason").asText()).containsExactly(firstReason, "LATE_CORRECTION");
        assertThat(revisions.get(0).path("complete").asBoolean()).isEqualTo(complete);
        assertThat(revisions.get(1).path("complete").asBoolean()).as("the correction of a %s close", firstReason).isEqualTo(complete);
        assertThat(revisions.get(1).path("seen").asLong()).isGreaterThan(revisions.get(0).path("seen").asLong());
    }

    /** A pipeline without completeness: raw events {@code {"k", "id", "t"}}, 2 min lifetime, 30 s allowed lateness. */
    private static String pipeline(String window) {
        return "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
                + "    eventTime: {path: $.t}\n    window: " + window + "\n    triggers: {maxLifetime: 2m}\n"
                + "    allowedLateness: 30s\n    late: {correctionDelay: 10s}\n"
                + "    watermark: {outOfOrderness: 5s, idleAfter: 5s}\n"
                + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
    }
}
