package dev.fanin.sim;

import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.aws.dynamodb.IdLayout;
import dev.fanin.aws.dynamodb.LiveItemCodec;
import dev.fanin.aws.dynamodb.WindowItemCodec;
import dev.fanin.aws.sqs.SqsDeadLetters;
import dev.fanin.aws.sqs.SqsEmitter;
import dev.fanin.aws.sqs.TimerMessage;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.SizeBudget;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.IntakeResult;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.intake.Rejected;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.DeadLetters;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.SideOutput;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.SweepService;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.text.SinkText;
import dev.fanin.core.window.WindowStatus;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The value fuzzer: hostile numbers, strings (surrogates, non-characters, control characters), ids and sizes through
 * intake, window state, aggregate and every sink, on the real services and the in-memory store, with each sink's rules
 * checked as the service states them ({@link SinkRules}) on what the adapters would send. Per round:
 * <ul>
 *   <li>every message is counted or refused with a reason (never INTERNAL_ERROR); nothing throws, no Error escapes,
 *       no batch fails;</li>
 *   <li>what is counted is exact: per key, the final revisions count every distinct accepted event once and sum
 *       exactly the numbers sent; listed texts and sampled values are the strings sent, unchanged (or flagged);</li>
 *   <li>every window closes;</li>
 *   <li>every DynamoDB item, EventBridge entry, SQS body and attribute (emit queue, side output, dead letters, timers)
 *       is within its service's size and character rules, and every aggregate follows the schema.</li>
 * </ul>
 * Bounded in the default suite; {@code -Dfanin.fuzz.rounds=N -Dfanin.fuzz.seed=S} for a long run (docs/RELIABILITY.md).
 */
class ValueFuzzTest {

    private static final int ROUNDS = Integer.getInteger("fanin.fuzz.rounds", 40);
    private static final long SEED = Long.getLong("fanin.fuzz.seed", System.nanoTime());
    private static final Instant START = Instant.parse("2026-11-29T10:00:30Z");
    private static final String AGGREGATIONS = """
                aggregations:
                  - {name: n, type: count}
                  - {name: ids, type: distinct-ids, cap: 50, maxValueBytes: 300}
                  - {name: total, type: sum, path: $.num}
                  - {name: least, type: min, path: $.num}
                  - {name: most, type: max, path: $.num}
                  - {name: texts, type: distinct-values, path: $.text, cap: 40, maxValueBytes: 2000}
                  - {name: firstTexts, type: first, n: 3, path: $.text, maxValueBytes: 4000}
                  - {name: lastEvents, type: last, n: 3, maxValueBytes: 8192}
            """;
    static final String YAML = """
            version: 1
            pipelines:
              - name: fz-eb
                match: [{path: $.p, equals: eb}]
                key: [$.k]
                eventId: $.id
                eventTime: {path: $.t}
                window: {type: tumbling, size: 1m}
                triggers: {maxLifetime: 5m}
                watermark: {outOfOrderness: 0s, idleAfter: 30s}
                allowedLateness: 30s
                bounds: {maxKeyLength: 256}
                emit: {eventbridge: {bus: fuzz, source: fanin.fuzz, detailType: fanin.aggregate}}
            %1$s  - name: fz-sqs
                match: [{path: $.p, equals: sqs}]
                key: [$.k]
                eventId: $.id
                eventTime: {path: $.t}
                window: {type: session, gap: 20s}
                triggers: {maxLifetime: 5m}
                watermark: {outOfOrderness: 0s, idleAfter: 30s}
                allowedLateness: 30s
                bounds: {maxKeyLength: 256}
                emit: {sqs: {queueUrl: "https://sqs.us-east-1.amazonaws.com/1/fuzz.fifo", fifo: true}}
            %1$s""".formatted(AGGREGATIONS);

    @Test
    void everyValueIsHeldExactlyOrRefusedWithAReasonAndEverySinkGetsValidOutput() {
        System.err.println("ValueFuzzTest: seed " + SEED + " (-Dfanin.fuzz.seed=" + SEED + "), " + ROUNDS + " rounds");
        FaninConfig config = ConfigLoader.load(YAML, "fuzz");
        config.pipelines().forEach(p -> assertThat(SizeBudget.stateBytes(p)).isLessThanOrEqualTo(SizeBudget.stateLimit()));
        Tally total = new Tally();
        for (int round = 0; round < ROUNDS; round++) {
            long seed = SEED + round;
            Round r = new Round(config, new HostileValues(new Random(seed)));
            List<String> violations = r.run();
            assertThat(violations).as("round with seed %d (-Dfanin.fuzz.seed=%d -Dfanin.fuzz.rounds=1)", seed, seed).isEmpty();
            total.add(r.tally);
        }
        System.err.println("ValueFuzzTest: " + total);
        assertThat(total.accepted).as("some events are accepted").isPositive();
        assertThat(total.rejected).as("some messages are refused").isPositive();
    }

    /** What one round did, for the summary line. */
    static final class Tally {
        long messages;
        long accepted;
        long rejected;
        long windows;
        long emissions;
        long trimmed;

        void add(Tally t) {
            messages += t.messages;
            accepted += t.accepted;
            rejected += t.rejected;
            windows += t.windows;
            emissions += t.emissions;
            trimmed += t.trimmed;
        }

        @Override
        public String toString() {
            return messages + " messages, " + accepted + " events accepted, " + rejected + " refused with a reason, " + windows
                    + " windows closed, " + emissions + " aggregates emitted, " + trimmed + " samples trimmed";
        }
    }

    /** One batch of hostile messages through ingest, then sweeps until every window is closed, then the checks. */
    static final class Round {

        private final FaninConfig config;
        private final HostileValues values;
        private final SinkRules rules = new SinkRules();
        private final SimClock clock = new SimClock(START);
        private final InMemoryWindowStore store = new InMemoryWindowStore(4);
        private final List<AggregateEmitter.Request> emitted = new CopyOnWriteArrayList<>();
        private final List<String> sideRecords = new CopyOnWriteArrayList<>();
        private final Map<String, String> deadLetterReasons = new HashMap<>();
        /** The number and text each accepted event carries, by pipeline, key and (canonical) event id. */
        private final Map<String, Sent> sent = new LinkedHashMap<>();
        final Tally tally = new Tally();

        record Sent(String pipeline, String key, String eventId, BigDecimal number, String text) { }

        Round(FaninConfig config, HostileValues values) {
            this.config = config;
            this.values = values;
        }

        List<String> run() {
            FaninEngine engine = new FaninEngine(config, new FaninPorts(new CheckedStore(), new InMemoryWatermarkStore(), this::emit,
                    new CheckedTimers(), new CheckedSideOutput(), new CheckedDeadLetters(), Metrics.NONE), FaninSettings.defaults(),
                    clock.skewed(0));
            List<InboundMessage> batch = messages();
            tally.messages = batch.size();
            expect(batch);
            try {
                BatchResult result = new IngestService(engine).handle(batch);
                if (!result.failedMessageIds().isEmpty()) {
                    rules.violations.add("the batch handed messages back to SQS: " + result.failedMessageIds());
                }
                for (int i = 0; i < 12; i++) {
                    clock.advanceTo(clock.millis() + 60_000);
                    new SweepService(engine).sweep(clock.instant().plusSeconds(60));
                }
            } catch (Throwable t) {
                rules.violations.add("threw " + t);
            }
            checkRefusalsHaveTheirReason(batch);
            checkClosedAndExact();
            return rules.violations;
        }

        /** 5 to 25 messages: structured hostile events, repeats of them, and mutated corpus bodies. */
        private List<InboundMessage> messages() {
            List<InboundMessage> batch = new ArrayList<>();
            List<String> seeds = IntakeFuzzProperties.seeds();
            int n = values.between(5, 25);
            for (int i = 0; i < n; i++) {
                String body;
                if (values.chance(0.1)) {
                    String seed = seeds.get(values.between(0, seeds.size() - 1));
                    int at = values.between(0, seed.length());
                    // As a producer could have sent it through SQS: characters SQS refuses arrive escaped.
                    body = SinkText.escapeInvalid(seed.substring(0, at) + values.text(6) + seed.substring(at));
                } else if (!batch.isEmpty() && values.chance(0.15)) {
                    body = batch.get(values.between(0, batch.size() - 1)).body();
                } else {
                    body = event(i);
                }
                batch.add(SqsDeliveries.inbound("m" + i, body, Map.of("SentTimestamp", Long.toString(START.toEpochMilli()),
                        "ApproximateReceiveCount", "1"), START));
            }
            return batch;
        }

        private String event(int i) {
            // Numeric ids in notations that are the same number (7, 7.0, 7e0, 70e-1), hostile numbers, hostile text.
            boolean numeric = values.chance(0.5);
            String id = !numeric ? i + "-" + (values.chance(0.2) ? values.text(20) : values.identity(values.chance(0.1) ? 1100 : 20))
                    : values.chance(0.8) ? i + new String[] {"", ".0", "e0", "0e-1"}[values.between(0, 3)] : values.number();
            String key = values.chance(0.1) ? values.text(300) : values.chance(0.1) ? values.identity(300)
                    : "k" + values.between(0, 2) + values.identity(2);
            long t = values.chance(0.1) ? START.toEpochMilli() - 600_000 : START.toEpochMilli() - values.between(0, 25_000);
            StringBuilder body = new StringBuilder("{\"p\":\"").append(values.chance(0.5) ? "eb" : "sqs").append('"')
                    .append(",\"k\":").append(HostileValues.json(key))
                    .append(",\"id\":").append(numeric ? id : HostileValues.json(id))
                    .append(",\"t\":\"").append(Instant.ofEpochMilli(t)).append('"')
                    .append(",\"num\":").append(values.number())
                    .append(",\"text\":").append(HostileValues.json(values.text(values.chance(0.1) ? 5000 : 60)));
            if (values.chance(0.15)) {
                body.append(",\"big\":").append(HostileValues.json(values.big(200_000)));
            }
            if (values.chance(0.3)) {
                body.append(",\"nested\":[").append(values.number()).append(",{\"n\":").append(values.number()).append("}]");
            }
            return body.append('}').toString();
        }

        /** What intake makes of each message: events to be counted exactly, or a refusal to be dead-lettered. */
        private void expect(List<InboundMessage> batch) {
            MessageIntake intake = new MessageIntake(config);
            for (InboundMessage m : batch) {
                IntakeResult r = intake.parse(m);
                if (r.accepted().size() + r.rejected().size() + r.ignored().size() == 0) {
                    rules.violations.add(m.messageId() + " landed nowhere");
                }
                for (Rejected x : r.rejected()) {
                    tally.rejected++;
                    if (x.reason().name().equals("INTERNAL_ERROR")) {
                        rules.violations.add(m.messageId() + " INTERNAL_ERROR: " + x.detail());
                    }
                }
                for (Event e : r.accepted()) {
                    tally.accepted++;
                    JsonNode payload = e.payload();
                    sent.putIfAbsent(e.pipeline() + "\u0000" + e.key() + "\u0000" + e.eventId(), new Sent(e.pipeline(), e.key(),
                            e.eventId(), payload.path("num").decimalValue(), payload.path("text").textValue()));
                }
            }
        }

        /** Every refused message reached the dead letters once, with its reason first. */
        private void checkRefusalsHaveTheirReason(List<InboundMessage> batch) {
            MessageIntake intake = new MessageIntake(config);
            for (InboundMessage m : batch) {
                List<Rejected> rejected = intake.parse(m).rejected();
                if (rejected.isEmpty()) {
                    continue;
                }
                String reason = deadLetterReasons.get(m.messageId());
                Rejected first = rejected.get(0);
                String code = (first.recordIndex() >= 0 ? "record " + first.recordIndex() + ": " : "") + first.reason().name() + ": ";
                if (reason == null || !reason.startsWith(code)) {
                    rules.violations.add(m.messageId() + " was refused as " + code + "but dead-lettered with " + reason);
                }
            }
        }

        /** Every window closed; per key, the final revisions hold exactly the events sent (less the too-late ones). */
        private void checkClosedAndExact() {
            for (StoredWindow w : store.all()) {
                tally.windows++;
                if (w.status() != WindowStatus.CLOSED && w.status() != WindowStatus.MERGED) {
                    rules.violations.add("window " + w.ref() + " is " + w.status() + " after every deadline");
                }
            }
            Map<String, JsonNode> finals = new HashMap<>();
            for (AggregateEmitter.Request r : emitted) {
                JsonNode a = read(r.detailJson());
                String window = a.path("pipeline").asText() + "\u0000" + a.path("key").asText() + "\u0000" + a.path("window").path("id").asText();
                if (!finals.containsKey(window) || finals.get(window).path("revision").asInt() < a.path("revision").asInt()) {
                    finals.put(window, a);
                }
            }
            Map<String, long[]> counted = new HashMap<>();
            Map<String, BigDecimal> summed = new HashMap<>();
            for (JsonNode a : finals.values()) {
                String key = a.path("pipeline").asText() + "\u0000" + a.path("key").asText();
                counted.computeIfAbsent(key, k -> new long[1])[0] += a.path("aggregations").path("n").asLong();
                JsonNode value = a.path("aggregations").path("total").path("value");
                summed.merge(key, value.isNull() ? BigDecimal.ZERO : value.decimalValue(), BigDecimal::add);
                checkListedValuesAreSentValues(a);
            }
            Map<String, long[]> expectedCount = new HashMap<>();
            Map<String, BigDecimal> expectedSum = new HashMap<>();
            for (Sent s : sent.values()) {
                if (sideRecords.stream().anyMatch(rec -> isTooLate(rec, s))) {
                    continue;
                }
                String key = s.pipeline() + "\u0000" + s.key();
                expectedCount.computeIfAbsent(key, k -> new long[1])[0]++;
                expectedSum.merge(key, s.number(), BigDecimal::add);
            }
            expectedCount.forEach((key, n) -> {
                long got = counted.getOrDefault(key, new long[1])[0];
                if (got != n[0]) {
                    rules.violations.add("key " + key.replace('\u0000', '/') + " counts " + got + " events, " + n[0] + " were sent");
                }
                BigDecimal sum = summed.getOrDefault(key, BigDecimal.ZERO);
                if (sum.compareTo(expectedSum.get(key)) != 0) {
                    rules.violations.add("key " + key.replace('\u0000', '/') + " sums " + sum + ", the numbers sent sum " + expectedSum.get(key));
                }
            });
        }

        private boolean isTooLate(String record, Sent s) {
            JsonNode r = read(record);
            return r.path("pipeline").asText().equals(s.pipeline()) && r.path("key").asText().equals(s.key())
                    && r.path("eventId").asText().equals(s.eventId());
        }

        /** Listed texts and sampled texts are exactly strings that were sent (or a sample says it was trimmed). */
        private void checkListedValuesAreSentValues(JsonNode a) {
            List<String> texts = sent.values().stream().map(Sent::text).toList();
            a.path("aggregations").path("texts").path("values").forEach(v -> {
                if (!texts.contains(v.textValue())) {
                    rules.violations.add("listed text " + HostileValues.json(v.textValue()) + " was never sent");
                }
            });
            a.path("aggregations").path("firstTexts").forEach(sample -> {
                if (sample.path("trimmed").asBoolean()) {
                    tally.trimmed++;
                } else if (!texts.contains(sample.path("value").textValue())) {
                    rules.violations.add("sampled text " + sample.path("value") + " was never sent");
                }
            });
        }

        private JsonNode read(String json) {
            try {
                return ExactJson.read(json);
            } catch (Exception e) {
                rules.violations.add("not JSON: " + e.getMessage());
                return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
            }
        }

        // ---------------------------------------------------------------- ports that check what the adapters would send

        private List<AggregateEmitter.Result> emit(List<AggregateEmitter.Request> requests) {
            List<AggregateEmitter.Result> results = new ArrayList<>();
            for (AggregateEmitter.Request r : requests) {
                tally.emissions++;
                emitted.add(r);
                String where = "emission " + r.aggregateId();
                if (r.pipeline().equals("fz-eb")) {
                    rules.eventBridgeEntry(where, "fanin.fuzz", "fanin.aggregate", r.detailJson());
                } else {
                    rules.sqsMessage(where, r.detailJson(), Map.of(), SinkRules.SQS_QUEUE_DEFAULT_BYTES);
                    rules.fifoId(where, SqsEmitter.messageGroupId(r.pipeline(), r.aggregateId()));
                    rules.fifoId(where, SqsEmitter.deduplicationId(r.aggregateId()));
                }
                JsonNode aggregate = read(r.detailJson());
                if (!AggregateSchema.problems(aggregate).isEmpty()) {
                    rules.violations.add(where + " breaks the schema: " + AggregateSchema.problems(aggregate));
                }
                results.add(new AggregateEmitter.Result(r.aggregateId(), true, null));
            }
            return results;
        }

        private final class CheckedStore extends ForwardingWindowStore {
            CheckedStore() {
                super(store);
            }

            @Override
            public WriteOutcome create(StoredWindow window) {
                check(window);
                return super.create(window);
            }

            @Override
            public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
                check(next);
                return super.replace(previous, next);
            }

            @Override
            public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
                next.sessions().forEach(this::check);
                long written = previous.version() + 1;
                rules.dynamoDbItem("store live sessions of " + next.key(), DynamoDbItemSize.bytes(
                        LiveItemCodec.item(next, written, LiveItemCodec.tails(next), LiveItemCodec.sliced(next))), "");
                return super.replaceLive(previous, next);
            }

            private void check(StoredWindow w) {
                String where = "store " + w.ref();
                rules.dynamoDbItem(where, DynamoDbItemSize.bytes(WindowItemCodec.head(w, w.version() + 1, w.eventIds(), IdLayout.EMPTY)), w.state());
                rules.dynamoDbItem(where + " key", 0, w.ref().key());
                long budget = SizeBudget.stateBytes(config.pipelines().stream().filter(p -> p.name().equals(w.ref().pipeline())).findFirst().orElseThrow());
                if (SinkRules.utf8(w.state()) > budget) {
                    rules.violations.add(where + ": state of " + SinkRules.utf8(w.state()) + " bytes, over its budget " + budget);
                }
            }
        }

        private final class CheckedTimers implements WindowTimers {
            @Override
            public void arm(Wakeup wakeup, Instant now) {
                rules.sqsMessage("timer " + wakeup.ref(), new TimerMessage(wakeup).toJson(), Map.of(), SinkRules.SQS_QUEUE_DEFAULT_BYTES);
            }
        }

        private final class CheckedSideOutput implements SideOutput {
            @Override
            public void send(String kind, String pipeline, String json) {
                sideRecords.add(json);
                rules.sqsMessage("side output " + kind, json, Map.of("fanin-kind", string(kind), "fanin-pipeline", string(pipeline)),
                        SinkRules.SQS_LARGEST_BYTES);
            }
        }

        private final class CheckedDeadLetters implements DeadLetters {
            @Override
            public void send(String messageId, String body, Map<String, String> attributes, String code, String reason) {
                deadLetterReasons.put(messageId, reason);
                String sent = SqsDeadLetters.body(body);
                rules.sqsMessage("dead letter " + messageId, sent, SqsDeadLetters.attributes(messageId, SinkRules.utf8(sent), attributes, code, reason),
                        SinkRules.SQS_LARGEST_BYTES);
            }
        }

        private static MessageAttributeValue string(String value) {
            return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
        }
    }
}
