package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.WindowStore;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every pipeline of a batch takes its watermark at the batch's start, with the batch's queue evidence, however long the
 * pipelines before it took: a backlog the batch delivers late holds the watermark back for the second pipeline as for
 * the first. (Each window's step decides at its own time; the watermark it decides with is the batch's.)
 */
class BatchStartWatermarkTest {

    private static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

    @ParameterizedTest(name = "after a slow pipeline: {0}")
    @ValueSource(booleans = {false, true})
    void aBacklogOfTheSecondPipelineIsHeldBackWhateverTheFirstCost(boolean slowFirst) {
        TestClock clock = new TestClock(START);
        // Each window of p1 takes 6 s to write: its three windows take longer than idleAfter (10 s).
        WindowStore store = InMemoryEngines.slowCreates(clock,
                window -> window.ref().pipeline().equals("p1") ? Duration.ofSeconds(6) : Duration.ZERO);
        FaninEngine engine = InMemoryEngines.of("version: 1\npipelines:\n" + pipeline("p1") + pipeline("p2"), store, new RecordingEmitter(),
                new RecordingTimers(), clock);
        List<InboundMessage> batch = new ArrayList<>();
        if (slowFirst) {
            for (String key : List.of("a", "b", "c")) {
                batch.add(message("m1-" + key, "p1", key, START.minusSeconds(1), START.minusSeconds(1)));
            }
        }
        // p2: a backlog, each sent just after its event and delivered a minute or more later; two minutes apart.
        Instant newer = START.minusSeconds(60);
        Instant older = newer.minusSeconds(120);
        batch.add(message("m2-older", "p2", "x", older, older.plusMillis(500)));
        batch.add(message("m2-newer", "p2", "y", newer, newer.plusMillis(500)));

        BatchResult r = new IngestService(engine).handle(batch, Instant.MAX);

        assertThat(r.tooLate()).as("the older backlog event is not too late").isZero();
        assertThat(r.eventsAccepted()).isEqualTo(batch.size());
        assertThat(((RecordingSideOutput) engine.ports().sideOutput()).sideRecords()).isEmpty();
    }

    private static String pipeline(String name) {
        return "  - name: " + name + "\n    envelope: raw\n    match: [{path: $.pipe, equals: " + name + "}]\n    key: [$.k]\n"
                + "    eventId: $.id\n    eventTime: {path: $.t}\n    window: {type: tumbling, size: 1m}\n    triggers: {maxLifetime: 10m}\n"
                + "    watermark: {outOfOrderness: 10s, idleAfter: 10s}\n    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
    }

    private static InboundMessage message(String id, String pipeline, String key, Instant eventTime, Instant sent) {
        String body = "{\"pipe\":\"" + pipeline + "\",\"k\":\"" + key + "\",\"id\":\"" + id + "\",\"t\":" + eventTime.toEpochMilli() + "}";
        return new InboundMessage(id, body, 1, sent, START, Map.of());
    }
}
