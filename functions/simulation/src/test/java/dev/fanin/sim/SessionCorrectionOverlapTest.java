package dev.fanin.sim;

import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.SweepService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The minimal trace behind the double count the simulation found (seed 1 of the first bounded runs): a late event
 * folded into a closed session as a correction used to extend that session's bounds over its neighbour, so a
 * redelivery of an event the neighbour had counted was routed to the closed session and counted again. A closed
 * session's bounds are frozen now, so the sessions of a key never overlap and the redelivery finds the one session
 * its time lies in.
 */
class SessionCorrectionOverlapTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final SimClock clock = new SimClock(Instant.parse("2026-11-29T10:00:00Z"));
    private final FaninConfig config = SimPipelines.load(1_000);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final RecordingSideOutput side = new RecordingSideOutput();
    private final FaninEngine engine = new FaninEngine(config,
            new FaninPorts(store, new InMemoryWatermarkStore(), emitter, new RecordingTimers(), side, side, Metrics.NONE),
            FaninSettings.defaults(), clock.skewed(0));
    private final IngestService ingest = new IngestService(engine);
    private final SweepService sweep = new SweepService(engine);
    private final long t0 = clock.millis();
    private int seq;

    private InboundMessage alert(String id, long eventTimeOffsetMillis) {
        String body = "{\"version\":\"0\",\"id\":\"" + id + "\",\"detail-type\":\"Resource Alert\",\"source\":\"custom.alerts\","
                + "\"account\":\"111122223333\",\"time\":\"" + Instant.ofEpochMilli(t0 + eventTimeOffsetMillis) + "\",\"region\":\"eu-west-1\","
                + "\"resources\":[],\"detail\":{\"service\":\"api\",\"resource\":\"i-1\"}}";
        return SqsDeliveries.inbound("m-" + (++seq), body, Map.of("SentTimestamp", Long.toString(clock.millis()),
                "ApproximateReceiveCount", "1"), clock.instant());
    }

    @Test
    void aRedeliveredEventIsCountedOnceAfterALateEventCorrectedTheClosedSessionBeforeIt() throws Exception {
        // Session A: one event at t0 -> [t0, t0+30s).
        ingest.handle(List.of(alert("A", 0)));
        // Session B: events at t0+45s and t0+47s, arriving at t0+50s; the watermark (maxEt - 10s = t0+37s) passes A's end.
        clock.advanceTo(t0 + 50_000);
        InboundMessage d = alert("D", 47_000);
        ingest.handle(List.of(alert("B", 45_000), d));
        sweep.sweep(clock.instant().plusSeconds(50));
        // A late event at t0+20s: a correction of A, whose bounds [t0, t0+30s) stay as they were (it used to span
        // [t0, t0+50s) and overlap B [t0+45s, t0+77s)).
        clock.advanceTo(t0 + 55_000);
        ingest.handle(List.of(alert("C", 20_000)));
        // SQS delivers D again (at-least-once).
        ingest.handle(List.of(d));
        clock.advanceTo(t0 + 10 * 60_000);
        for (int i = 0; i < 12; i++) {
            clock.advanceTo(clock.millis() + 60_000);
            sweep.sweep(clock.instant().plusSeconds(50));
        }

        Map<String, JsonNode> lastRevisionBySession = new HashMap<>();
        for (var r : emitter.emitted()) {
            JsonNode a = JSON.readTree(r.detailJson());
            lastRevisionBySession.merge(a.path("window").path("id").asText(), a,
                    (x, y) -> y.path("revision").asInt() > x.path("revision").asInt() ? y : x);
        }
        List<String> sessionsCountingD = new ArrayList<>();
        lastRevisionBySession.forEach((session, a) -> {
            for (JsonNode id : a.path("aggregations").path(SimPipelines.IDS).path("ids")) {
                if (id.asText().equals("D")) {
                    sessionsCountingD.add(session);
                }
            }
        });
        assertThat(sessionsCountingD).as("sessions whose last revision counts event D").hasSize(1);
    }
}
