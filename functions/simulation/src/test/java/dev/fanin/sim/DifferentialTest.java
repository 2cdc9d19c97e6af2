package dev.fanin.sim;

import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.aws.dynamodb.DynamoDbWatermarkStore;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.dynamodb.WindowTableSchema;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.SweepService;
import dev.fanin.core.service.TimerService;
import dev.fanin.testkit.LocalAwsEndpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The same traces through the real services on the in-memory store and on {@link DynamoDbWindowStore} +
 * {@link DynamoDbWatermarkStore} against the local endpoint give the same aggregates (by aggregate id, every field but
 * {@code emittedAt}), the same late side output and the same dead letters. So the store the simulation trusts cannot
 * drift from what the adapter does on DynamoDB's API.
 *
 * <p>Each trace has a few hundred events per window type with duplicates (same event id in another message),
 * reordering, late events within and beyond the allowed lateness, and one malformed message. The DynamoDB store spills
 * event-id slices beyond 8 ids, so windows larger than that also exercise the slice items.
 */
class DifferentialTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = """
            version: 1
            pipelines:
              - name: tumbling
                match: [{path: $.p, equals: tumbling}]
                key: [$.k]
                eventId: $.id
                eventTime: {path: $.t}
                window: {type: tumbling, size: 1m}
                triggers: {maxLifetime: 5m}
                watermark: {outOfOrderness: 5s, idleAfter: 30s}
                allowedLateness: 30s
            %1$s
              - name: sliding
                match: [{path: $.p, equals: sliding}]
                key: [$.k]
                eventId: $.id
                eventTime: {path: $.t}
                window: {type: sliding, size: 2m, slide: 1m}
                triggers: {maxLifetime: 5m}
                watermark: {outOfOrderness: 5s, idleAfter: 30s}
                allowedLateness: 30s
            %1$s
              - name: session
                match: [{path: $.p, equals: session}]
                key: [$.k]
                eventId: $.id
                eventTime: {path: $.t}
                window: {type: session, gap: 20s}
                triggers: {maxLifetime: 5m, count: 25}
                watermark: {outOfOrderness: 5s, idleAfter: 30s}
                allowedLateness: 30s
            %1$s
            """.formatted("""
                aggregations:
                  - {name: events, type: count}
                  - {name: ids, type: distinct-ids, cap: 1000, maxValueBytes: 64}
                  - {name: total, type: sum, path: $.v}
                  - {name: biggest, type: max, path: $.v}
                  - {name: last, type: last, n: 3, path: $.v}
            """);

    private static DynamoDbClient dynamo;
    private final FaninConfig config = ConfigLoader.load(YAML, "differential");

    @BeforeAll
    static void endpoint() {
        dynamo = LocalAwsEndpoint.shared().dynamoDb();
    }

    record Arrival(long at, String messageId, String body) { }

    record Outcome(Map<String, String> aggregates, List<String> late, List<String> dead, int batchesWithFailures) { }

    @Test
    void inMemoryStoreAndDynamoDbGiveTheSameAggregates() {
        List<Arrival> trace = trace(new Random(7), 100);

        Outcome memory = run(trace, new InMemoryWindowStore(4), new InMemoryWatermarkStore());
        String table = "differential-" + UUID.randomUUID();
        dynamo.createTable(WindowTableSchema.createTableRequest(table));
        Outcome dynamoDb = run(trace, new DynamoDbWindowStore(dynamo, table, new DynamoDbWindowStore.Settings(4, 8)),
                new DynamoDbWatermarkStore(dynamo, table, new DynamoDbWatermarkStore.Settings(1, Duration.ZERO, Duration.ofDays(7)), 0));

        // The trace exercised what it should, on both.
        assertThat(memory.aggregates().keySet()).anyMatch(id -> id.startsWith("7:sliding/"))
                .anyMatch(id -> id.startsWith("7:session/")).anyMatch(id -> id.startsWith("8:tumbling/"))
                .anyMatch(id -> !id.endsWith("/r0"));
        assertThat(memory.late()).isNotEmpty();
        assertThat(memory.dead()).hasSize(1);
        assertThat(dynamoDb.aggregates()).isEqualTo(memory.aggregates());
        assertThat(dynamoDb.late()).isEqualTo(memory.late());
        assertThat(dynamoDb.dead()).isEqualTo(memory.dead());
    }

    /** Events for three window types over five minutes: duplicates, reordering, late and too-late arrivals. */
    static List<Arrival> trace(Random random, int perPipeline) {
        List<Arrival> out = new ArrayList<>();
        long start = START.toEpochMilli();
        int seq = 0;
        for (String p : List.of("tumbling", "sliding", "session")) {
            for (int i = 0; i < perPipeline; i++) {
                long t = start + random.nextInt(300_000);
                String body = "{\"p\":\"" + p + "\",\"k\":\"key-" + random.nextInt(4) + "\",\"id\":\"" + p + "-" + i + "\",\"t\":\""
                        + Instant.ofEpochMilli(t) + "\",\"v\":" + random.nextInt(1000) + "}";
                double r = random.nextDouble();
                long at = t + random.nextInt(1_000);
                if (r < 0.08) {
                    at += 40_000 + random.nextInt(60_000);
                } else if (r < 0.12) {
                    at += 150_000 + random.nextInt(120_000);
                } else if (r < 0.32) {
                    at += random.nextInt(20_000);
                }
                out.add(new Arrival(at, "m-" + (++seq), body));
                if (random.nextDouble() < 0.1) {
                    out.add(new Arrival(at + random.nextInt(90_000), "m-" + (++seq), body));
                }
            }
        }
        out.add(new Arrival(start + 60_000, "m-" + (++seq), "{\"p\":\"tumbling\",\"k\":"));
        out.sort(Comparator.comparingLong(Arrival::at).thenComparing(Arrival::messageId));
        return out;
    }

    private Outcome run(List<Arrival> trace, WindowStore store, WatermarkStore watermarks) {
        SimClock clock = new SimClock(START);
        RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
        RecordingSideOutput side = new RecordingSideOutput();
        RecordingTimers timers = new RecordingTimers();
        FaninEngine engine = new FaninEngine(config, new FaninPorts(store, watermarks, emitter, timers, side, side, Metrics.NONE),
                FaninSettings.defaults(), clock.skewed(0));
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);
        TimerService timer = new TimerService(engine);
        int failures = 0;
        int next = 0;
        long end = trace.get(trace.size() - 1).at() + Duration.ofMinutes(8).toMillis();
        for (long now = START.toEpochMilli(); now <= end; now += 1_000) {
            clock.advanceTo(now);
            List<InboundMessage> batch = new ArrayList<>();
            while (next < trace.size() && trace.get(next).at() <= now) {
                Arrival a = trace.get(next++);
                batch.add(SqsDeliveries.inbound(a.messageId(), a.body(), Map.of(SqsDeliveries.SENT_TIMESTAMP, Long.toString(a.at()),
                        "ApproximateReceiveCount", "1"), clock.instant()));
                if (batch.size() == 10) {
                    failures += handle(ingest, batch);
                    batch = new ArrayList<>();
                }
            }
            if (!batch.isEmpty()) {
                failures += handle(ingest, batch);
            }
            for (RecordingTimers.Timer t : timers.takeDue(clock.instant())) {
                timer.fire(t.wakeup());
            }
            if (now % 60_000 == 0) {
                sweep.sweep(clock.instant().plusSeconds(50));
            }
        }
        Map<String, String> aggregates = new TreeMap<>();
        for (var r : emitter.emitted()) {
            try {
                ObjectNode a = (ObjectNode) JSON.readTree(r.detailJson());
                a.remove("emittedAt");
                aggregates.put(r.aggregateId(), a.toString());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        List<String> late = side.sideRecords().stream().map(s -> s.kind() + " " + s.json()).sorted().collect(Collectors.toList());
        List<String> dead = side.deadLetters().stream().map(d -> d.messageId() + " " + d.reason()).sorted().collect(Collectors.toList());
        return new Outcome(aggregates, late, dead, failures);
    }

    private static int handle(IngestService ingest, List<InboundMessage> batch) {
        BatchResult r = ingest.handle(batch);
        assertThat(r.failedMessageIds()).as("no store fault is injected here").isEmpty();
        return r.failedMessageIds().isEmpty() ? 0 : 1;
    }
}
