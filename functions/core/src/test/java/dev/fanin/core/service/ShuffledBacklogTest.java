package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.testkit.TestClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 17's report, on the core: 60 alerts in 3 storms over 5 minutes of event time, delivered 10 minutes late and
 * shuffled within 20 s, give the aggregates of the same alerts delivered as they were sent, and nothing goes to the
 * side output. Without the queue-aware watermark the first newer alert of the backlog made older ones late.
 */
class ShuffledBacklogTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
            + "    eventTime: {path: $.t}\n    window: {type: session, gap: 30s}\n    triggers: {maxLifetime: 10m}\n"
            + "    watermark: {outOfOrderness: 10s, idleAfter: 30s}\n    allowedLateness: 2m\n"
            + "    aggregations: [{name: alerts, type: count}, {name: ids, type: distinct-values, path: $.id, cap: 100}]\n"
            + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";

    /** One alert: when it happened (= sent 500 ms later) and when the queue delivers it. */
    private record Alert(String id, Instant eventTime, Instant deliveredAt) {
        Instant sentAt() {
            return eventTime.plusMillis(500);
        }
    }

    private static List<Alert> storms() {
        List<Alert> alerts = new ArrayList<>();
        for (int storm = 0; storm < 3; storm++) {
            for (int i = 0; i < 20; i++) {
                Instant t = T0.plus(Duration.ofSeconds(120L * storm + 2L * i));
                alerts.add(new Alert("s" + storm + "-" + i, t, t.plusMillis(500)));
            }
        }
        return alerts;
    }

    /** The same alerts delivered once the consumers are back, 10 minutes after the first was sent, in any order within the spread. */
    private static List<Alert> backlog(long seed, int spreadSeconds) {
        Random random = new Random(seed);
        Instant resumed = T0.plus(Duration.ofMinutes(10));
        List<Alert> late = new ArrayList<>();
        for (Alert a : storms()) {
            Instant deliver = a.sentAt().isAfter(resumed) ? a.sentAt() : resumed.plusMillis(random.nextInt(spreadSeconds * 1_000));
            late.add(new Alert(a.id(), a.eventTime(), deliver));
        }
        return late;
    }

    /**
     * Drains of 20 s and of 300 s, ten times idleAfter: the backlog's floor holds while the outage's messages keep
     * coming, so the frontier does not pass those still queued (with a frontier of the last idleAfter of evidence
     * alone, 16 of 30 seeds of the long drain split storms and emitted corrections).
     */
    @ParameterizedTest(name = "seed {0}, drained over {1} s")
    @CsvSource({"1, 20", "2, 20", "3, 20", "4, 20", "5, 20", "1, 300", "2, 300", "3, 300", "4, 300", "5, 300", "6, 300", "7, 300", "8, 300"})
    void aShuffledBacklogGivesTheAggregatesOfInOrderDelivery(long seed, int spreadSeconds) throws IOException {
        Run inOrder = Run.of(storms());
        Run shuffled = Run.of(backlog(seed, spreadSeconds));

        assertThat(inOrder.aggregates()).hasSize(3);
        assertThat(shuffled.aggregates()).isEqualTo(inOrder.aggregates());
        assertThat(shuffled.side.sideRecords()).isEmpty();
    }

    /** Delivers alerts in batches of up to 10 at their delivery instants, with the sweeper every minute and the timers on time. */
    private record Run(RecordingEmitter emitter, RecordingSideOutput side) {

        static Run of(List<Alert> alerts) {
            TestClock clock = new TestClock(T0);
            RecordingEmitter emitter = new RecordingEmitter();
            RecordingSideOutput side = new RecordingSideOutput();
            RecordingTimers timers = new RecordingTimers();
            FaninEngine engine = new FaninEngine(ConfigLoader.load(YAML, "test"),
                    new FaninPorts(new InMemoryWindowStore(4), new InMemoryWatermarkStore(), emitter, timers, side, side, Metrics.NONE),
                    FaninSettings.defaults(), clock);
            IngestService ingest = new IngestService(engine);
            SweepService sweep = new SweepService(engine);
            TimerService timerService = new TimerService(engine);
            List<Alert> queue = new ArrayList<>(alerts);
            queue.sort(Comparator.comparing(Alert::deliveredAt));
            Instant end = T0.plus(Duration.ofMinutes(40));
            Instant nextSweep = T0.plus(Duration.ofMinutes(1));
            for (Instant now = T0; now.isBefore(end); now = now.plusMillis(250)) {
                clock.set(now);
                List<InboundMessage> batch = new ArrayList<>();
                while (!queue.isEmpty() && !queue.get(0).deliveredAt().isAfter(now)) {
                    Alert a = queue.remove(0);
                    batch.add(new InboundMessage(a.id(), "{\"k\":\"svc\",\"id\":\"" + a.id() + "\",\"t\":" + a.eventTime().toEpochMilli() + "}",
                            a.sentAt(), now));
                    if (batch.size() == 10) {
                        ingest.handle(batch);
                        batch = new ArrayList<>();
                    }
                }
                if (!batch.isEmpty()) {
                    ingest.handle(batch);
                }
                timers.takeDue(now).forEach(t -> timerService.fire(t.wakeup()));
                if (!now.isBefore(nextSweep)) {
                    sweep.sweep(now.plusSeconds(60));
                    nextSweep = nextSweep.plus(Duration.ofMinutes(1));
                }
            }
            return new Run(emitter, side);
        }

        /**
         * Every revision emitted, by key, window start and revision, without its processing times and its ids: a
         * session is named after the first event time its first batch saw, which depends on the delivery order.
         */
        Map<String, JsonNode> aggregates() throws IOException {
            Map<String, JsonNode> byWindow = new TreeMap<>();
            for (var r : emitter.emitted()) {
                ObjectNode a = (ObjectNode) JSON.readTree(r.detailJson());
                a.remove(List.of("openedAt", "closedAt", "emittedAt", "aggregateId", "corrects"));
                ((ObjectNode) a.path("window")).remove("id");
                byWindow.put(a.path("key").asText() + " " + a.path("window").path("start").asText() + " r" + a.path("revision").asInt(), a);
            }
            return byWindow;
        }
    }
}
