package dev.fanin.sim;

import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A corpus of hostile messages, each fed through {@link IngestService} in a batch between two good messages, against
 * the bundled sample pipelines. For every case: the batch does not crash and reports no failure (nothing is left for
 * SQS to retry forever), the good messages are accepted, and the hostile one ends exactly as the case says (accepted,
 * duplicate, ignored, or dead-lettered with the named reason).
 */
class HostileInputTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final String T = "2026-11-29T09:59:00Z";

    enum Outcome { ACCEPTED, DEAD_LETTERED, IGNORED }

    record Case(String name, String body, Map<String, String> attributes, Outcome outcome, String reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case dead(String name, String body, String reason) {
        return new Case(name, body, Map.of(), Outcome.DEAD_LETTERED, reason);
    }

    private static Case accepted(String name, String body) {
        return new Case(name, body, Map.of(), Outcome.ACCEPTED, null);
    }

    /** A shard-completions event with one field replaced (or removed, with a null value), as raw JSON text. */
    static String shard(String field, String json) {
        Map<String, String> f = new java.util.LinkedHashMap<>();
        f.put("type", "\"shard.done\"");
        f.put("jobId", "\"hostile\"");
        f.put("runId", "\"r1\"");
        f.put("shard", "0");
        f.put("shardCount", "4");
        f.put("rows", "10");
        f.put("finishedAt", "\"" + T + "\"");
        if (json == null) {
            f.remove(field);
        } else {
            f.put(field, json);
        }
        return f.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue()).collect(Collectors.joining(",", "{", "}"));
    }

    static String sns(String message) {
        return "{\"Type\":\"Notification\",\"MessageId\":\"sns-1\",\"TopicArn\":\"arn:aws:sns:eu-west-1:111122223333:alerts\",\"Message\":"
                + message + ",\"Timestamp\":\"" + T + "\"}";
    }

    static String alertDetail(String detail) {
        return "{\"version\":\"0\",\"id\":\"eb-1\",\"detail-type\":\"Resource Alert\",\"source\":\"custom.alerts\",\"account\":\"111122223333\","
                + "\"time\":\"" + T + "\",\"region\":\"eu-west-1\",\"resources\":[],\"detail\":" + detail + "}";
    }

    static String s3(String record) {
        return "{\"Records\":[" + record + "]}";
    }

    static String s3Record(String objectKey) {
        return "{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"eu-west-1\",\"eventTime\":\"" + T + "\","
                + "\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":" + objectKey
                + ",\"size\":1,\"sequencer\":\"01\"}}}";
    }

    static List<Case> corpus() {
        List<Case> c = new ArrayList<>();
        // Not JSON, or not the JSON we take.
        c.add(dead("empty body", "", "MALFORMED_JSON"));
        c.add(dead("blank body", " \n\t ", "MALFORMED_JSON"));
        c.add(dead("plain text", "this is not json", "MALFORMED_JSON"));
        c.add(dead("truncated JSON", shard("shard", "0").substring(0, 40), "MALFORMED_JSON"));
        c.add(dead("truncated mid-string", "{\"type\":\"shard.do", "MALFORMED_JSON"));
        c.add(dead("trailing data", shard("shard", "0") + " }", "MALFORMED_JSON"));
        c.add(dead("two JSON documents", shard("shard", "0") + shard("shard", "1"), "MALFORMED_JSON"));
        c.add(dead("duplicate field", "{\"type\":\"shard.done\",\"type\":\"shard.done\"}", "MALFORMED_JSON"));
        c.add(dead("single quotes", "{'type':'shard.done'}", "MALFORMED_JSON"));
        c.add(dead("NaN literal", shard("rows", "NaN"), "MALFORMED_JSON"));
        c.add(dead("comment", "/* hi */" + shard("shard", "0"), "MALFORMED_JSON"));
        c.add(dead("byte order mark", "\uFEFF" + shard("shard", "0"), "MALFORMED_JSON"));
        c.add(dead("invalid escape", "{\"type\":\"shard\\q\"}", "MALFORMED_JSON"));
        c.add(dead("JSON null", "null", "NOT_A_JSON_OBJECT"));
        c.add(dead("JSON array", "[1,2,3]", "NOT_A_JSON_OBJECT"));
        c.add(dead("JSON string", "\"shard.done\"", "NOT_A_JSON_OBJECT"));
        c.add(dead("JSON number", "42", "NOT_A_JSON_OBJECT"));
        // Huge or deep.
        c.add(dead("nested 70 levels", shard("rows", "[".repeat(70) + "]".repeat(70)), "JSON_TOO_COMPLEX"));
        c.add(dead("nested 10,000 levels", shard("rows", "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000)), "JSON_TOO_COMPLEX"));
        c.add(dead("80-digit number", shard("rows", "9".repeat(80)), "JSON_TOO_COMPLEX"));
        // Numbers no stage could hold exactly: refused before anything reads them (1e2147483000 used to exhaust the heap).
        c.add(dead("number with a 2-billion exponent in a match field", shard("type", "1e2147483000"), "NUMBER_OUT_OF_RANGE"));
        c.add(dead("number with a 2-billion exponent", shard("rows", "1e2147483000"), "NUMBER_OUT_OF_RANGE"));
        c.add(dead("zero with a 2-billion negative exponent", shard("rows", "0e-2147483000"), "NUMBER_OUT_OF_RANGE"));
        c.add(dead("number beyond a double", shard("rows", "1E+400"), "NUMBER_OUT_OF_RANGE"));
        c.add(dead("number 1e1000", shard("rows", "1e1000"), "NUMBER_OUT_OF_RANGE"));
        c.add(dead("number below 1e-300", shard("durationMs", "1e-301"), "NUMBER_OUT_OF_RANGE"));
        c.add(dead("exponent beyond an int", shard("rows", "1e99999999999"), "NUMBER_OUT_OF_RANGE"));
        c.add(accepted("number at the top of the range", shard("rows", "1e300")));
        c.add(accepted("number no double holds", shard("rows", "12345678901234567890.5")));
        c.add(dead("body over maxPayloadBytes", shard("rows", "\"" + "x".repeat(300_000) + "\""), "PAYLOAD_TOO_LARGE"));
        c.add(dead("multi-byte body over maxPayloadBytes", shard("rows", "\"" + "é".repeat(140_000) + "\""), "PAYLOAD_TOO_LARGE"));
        // Keys.
        c.add(dead("key missing", shard("runId", null), "MISSING_KEY"));
        c.add(dead("key null", shard("runId", "null"), "MISSING_KEY"));
        c.add(dead("key an object", shard("jobId", "{\"name\":\"etl\"}"), "KEY_NOT_SCALAR"));
        c.add(dead("key an array", shard("jobId", "[\"etl\"]"), "KEY_NOT_SCALAR"));
        c.add(dead("key with a bell character", shard("jobId", "\"etl\\u0007x\""), "KEY_CONTROL_CHARACTERS"));
        c.add(dead("key with a newline", shard("jobId", "\"etl\\nx\""), "KEY_CONTROL_CHARACTERS"));
        c.add(dead("key with NUL", shard("jobId", "\"etl\\u0000x\""), "KEY_CONTROL_CHARACTERS"));
        c.add(dead("key with DEL", shard("jobId", "\"etl\\u007fx\""), "KEY_CONTROL_CHARACTERS"));
        c.add(dead("key over maxKeyLength", shard("jobId", "\"" + "k".repeat(600) + "\""), "KEY_TOO_LONG"));
        c.add(dead("key of escapes over maxKeyLength", shard("jobId", "\"" + "|".repeat(300) + "\""), "KEY_TOO_LONG"));
        c.add(accepted("key with the separator", shard("jobId", "\"a|b\"")));
        c.add(accepted("key with backslashes", shard("jobId", "\"a\\\\|b\"")));
        // A lone surrogate has no UTF-8 encoding: stored it would become "?", so two keys could collide.
        c.add(dead("key with a lone surrogate escape", shard("jobId", "\"etl\\ud800\""), "KEY_CONTROL_CHARACTERS"));
        c.add(dead("key with a raw lone surrogate", shard("jobId", "\"etl\ud800\""), "KEY_CONTROL_CHARACTERS"));
        c.add(accepted("key with the replacement character of invalid UTF-8", shard("jobId", "\"etl\ufffd\"")));
        c.add(accepted("key a number", shard("jobId", "12345")));
        c.add(accepted("key with emoji", shard("jobId", "\"etl-\ud83d\ude80\"")));
        // Event ids.
        c.add(dead("event id missing", shard("shard", null), "MISSING_EVENT_ID"));
        c.add(dead("event id empty", shard("shard", "\"\""), "MISSING_EVENT_ID"));
        c.add(dead("event id an object", shard("shard", "{\"n\":0}"), "EVENT_ID_NOT_SCALAR"));
        c.add(accepted("event id over 1024 bytes (kept as its SHA-256)", shard("shard", "\"" + "9".repeat(2_000) + "\"")));
        // Ids are compared by their UTF-8 bytes: a lone surrogate has none (a\ud800, a\udbff and a? were one id).
        c.add(dead("event id with a lone surrogate escape", shard("shard", "\"a\\ud800\""), "EVENT_ID_CONTROL_CHARACTERS"));
        c.add(dead("event id with a raw lone low surrogate", shard("shard", "\"a\udbff\""), "EVENT_ID_CONTROL_CHARACTERS"));
        c.add(dead("event id with a newline", shard("shard", "\"s-1\\n\""), "EVENT_ID_CONTROL_CHARACTERS"));
        c.add(accepted("event id with emoji and a non-character", shard("shard", "\"s-\ud83d\ude80\\uffff\"")));
        c.add(accepted("event id a decimal zero", shard("shard", "0.0")));
        // Event times.
        c.add(dead("time unparsable", shard("finishedAt", "\"yesterday evening\""), "UNPARSABLE_EVENT_TIME"));
        c.add(dead("time without offset", shard("finishedAt", "\"2026-11-29T09:59:00\""), "UNPARSABLE_EVENT_TIME"));
        c.add(dead("time a boolean", shard("finishedAt", "true"), "UNPARSABLE_EVENT_TIME"));
        c.add(dead("time an object", shard("finishedAt", "{\"at\":1}"), "UNPARSABLE_EVENT_TIME"));
        c.add(dead("time Long.MAX_VALUE", shard("finishedAt", Long.toString(Long.MAX_VALUE)), "EVENT_TIME_OUT_OF_RANGE"));
        c.add(dead("time Long.MIN_VALUE", shard("finishedAt", Long.toString(Long.MIN_VALUE)), "EVENT_TIME_OUT_OF_RANGE"));
        c.add(dead("time 1e300", shard("finishedAt", "1e300"), "EVENT_TIME_OUT_OF_RANGE"));
        c.add(dead("time the epoch", shard("finishedAt", "0"), "EVENT_TIME_OUT_OF_RANGE"));
        c.add(dead("time before 1970", shard("finishedAt", "\"1969-12-31T23:59:59Z\""), "EVENT_TIME_OUT_OF_RANGE"));
        c.add(dead("time after 9999", shard("finishedAt", "\"+10000-01-01T00:00:00Z\""), "EVENT_TIME_OUT_OF_RANGE"));
        c.add(dead("time a year ahead", shard("finishedAt", "\"2027-11-29T10:00:00Z\""), "EVENT_TIME_OUT_OF_RANGE"));
        c.add(dead("time eight days behind", shard("finishedAt", "\"2026-11-21T10:00:00Z\""), "EVENT_TIME_OUT_OF_RANGE"));
        c.add(accepted("time absent: SQS sent time", shard("finishedAt", null)));
        c.add(new Case("time absent and SentTimestamp garbage: receipt time", shard("finishedAt", null),
                Map.of("SentTimestamp", "not-a-number"), Outcome.ACCEPTED, null));
        // Matching and envelopes.
        c.add(dead("no matching pipeline", "{\"type\":\"deploy.started\",\"app\":\"checkout\"}", "NO_MATCHING_PIPELINE"));
        c.add(dead("empty object", "{}", "NO_MATCHING_PIPELINE"));
        c.add(dead("SNS raw delivery to an sns pipeline", "{\"source\":\"custom.alerts\",\"alertId\":\"x1\",\"account\":\"1\",\"region\":\"r\","
                + "\"service\":\"s\",\"time\":\"" + T + "\"}", "ENVELOPE_MISMATCH"));
        c.add(dead("shard event wrapped by EventBridge", "{\"version\":\"0\",\"id\":\"eb-9\",\"detail-type\":\"Shard\",\"source\":\"etl\","
                + "\"account\":\"1\",\"time\":\"" + T + "\",\"region\":\"r\",\"resources\":[],\"detail\":" + shard("shard", "0") + "}",
                "ENVELOPE_MISMATCH"));
        c.add(dead("SNS Message not JSON", sns("\"hello\""), "MALFORMED_JSON"));
        c.add(dead("SNS Message a JSON array", sns("\"[1,2]\""), "NOT_A_JSON_OBJECT"));
        c.add(dead("SNS Message truncated JSON", sns("\"{\\\"source\\\":\""), "MALFORMED_JSON"));
        c.add(dead("EventBridge detail a string", alertDetail("\"service: api\""), "NOT_A_JSON_OBJECT"));
        c.add(dead("EventBridge alert without its key field", alertDetail("{\"resource\":\"i-1\"}"), "MISSING_KEY"));
        c.add(dead("S3 record with a key outside any prefix", s3(s3Record("\"README\"")), "record 0: MISSING_KEY"));
        c.add(dead("S3 record with a numeric key", s3(s3Record("7")), "record 0: MISSING_KEY"));
        c.add(dead("S3 Records empty", "{\"Records\":[]}", "NO_MATCHING_PIPELINE"));
        c.add(new Case("S3 test event", "{\"Service\":\"Amazon S3\",\"Event\":\"s3:TestEvent\",\"Time\":\"" + T + "\",\"Bucket\":\"b\"}",
                Map.of(), Outcome.IGNORED, null));
        c.add(accepted("S3 record with separator and unicode in the prefix", s3(s3Record("\"a|b/ünï/x.csv\""))));
        return c;
    }

    static Stream<Case> cases() {
        return corpus().stream();
    }

    private final FaninConfig config = ConfigLoader.loadBundled();
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingSideOutput side = new RecordingSideOutput();
    private final IngestService ingest = new IngestService(new FaninEngine(config,
            new FaninPorts(store, new InMemoryWatermarkStore(), new RecordingEmitter(AggregateSchema::assertValid), new RecordingTimers(), side, side, Metrics.NONE),
            FaninSettings.defaults(), new SimClock(NOW).skewed(0)));
    private int seq;

    private InboundMessage message(String body, Map<String, String> attributes) {
        Map<String, String> a = new HashMap<>(Map.of("SentTimestamp", Long.toString(NOW.toEpochMilli()), "ApproximateReceiveCount", "1"));
        a.putAll(attributes);
        return SqsDeliveries.inbound("m-" + (++seq), body, a, NOW);
    }

    @Test
    void theCorpusHasAtLeastFortyKinds() {
        assertThat(corpus()).hasSizeGreaterThanOrEqualTo(40);
        assertThat(corpus().stream().map(Case::name).distinct()).hasSize(corpus().size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aHostileMessageNeverFailsItsBatchAndEndsAsTheCaseSays(Case c) {
        InboundMessage before = message(shard("runId", "\"good-before\""), Map.of());
        InboundMessage hostile = message(c.body(), c.attributes());
        InboundMessage after = message(shard("runId", "\"good-after\""), Map.of());

        BatchResult r = ingest.handle(List.of(before, hostile, after));

        assertThat(r.failedMessageIds()).as("messages handed back to SQS").isEmpty();
        assertThat(r.messages()).isEqualTo(3);
        int acceptedHostile = c.outcome() == Outcome.ACCEPTED ? 1 : 0;
        assertThat(r.eventsAccepted()).as("events accepted").isEqualTo(2 + acceptedHostile);
        assertThat(r.ignored()).as("ignored").isEqualTo(c.outcome() == Outcome.IGNORED ? 1 : 0);
        assertThat(r.deadLettered()).as("dead-lettered").isEqualTo(c.outcome() == Outcome.DEAD_LETTERED ? 1 : 0);
        if (c.outcome() == Outcome.DEAD_LETTERED) {
            assertThat(side.deadLetters()).singleElement().satisfies(d -> {
                assertThat(d.messageId()).isEqualTo(hostile.messageId());
                assertThat(d.body()).isEqualTo(c.body());
                assertThat(d.reason()).startsWith(c.reason() + ": ");
                assertThat(d.reason().length()).as("a reason that explains").isGreaterThan(c.reason().length() + 10);
            });
        } else {
            assertThat(side.deadLetters()).isEmpty();
        }
    }

    @Test
    void keysWithSeparatorsNeverCollide() {
        BatchResult r = ingest.handle(List.of(
                message(shard("jobId", "\"a|b\"").replace("\"runId\":\"r1\"", "\"runId\":\"c\""), Map.of()),
                message(shard("jobId", "\"a\"").replace("\"runId\":\"r1\"", "\"runId\":\"b|c\""), Map.of())));

        assertThat(r.eventsAccepted()).isEqualTo(2);
        assertThat(r.duplicates()).isZero();
        Set<String> keys = store.all().stream().map(w -> w.ref().key()).collect(Collectors.toSet());
        assertThat(keys).containsExactlyInAnyOrder("a\\|b|c", "a|b\\|c");
    }

    @Test
    void massDuplicatesAreCountedOnceAndTheRestSuppressed() {
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            batch.add(message(shard("shard", "1"), Map.of()));
        }
        BatchResult first = ingest.handle(batch);
        List<InboundMessage> again = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            again.add(message(shard("shard", "1"), Map.of()));
        }
        int duplicates = 0;
        for (int i = 0; i < again.size(); i += 10) {
            BatchResult r = ingest.handle(again.subList(i, i + 10));
            assertThat(r.failedMessageIds()).isEmpty();
            duplicates += r.duplicates();
        }

        assertThat(first.eventsAccepted()).isEqualTo(1);
        assertThat(first.duplicates()).isEqualTo(9);
        assertThat(duplicates).isEqualTo(500);
        List<StoredWindow> windows = store.all();
        assertThat(windows).singleElement().satisfies(w -> assertThat(w.eventIds()).hasSize(1));
    }

    @Test
    void theSameMessageTwiceInOneBatchIsAccountedOnceAsAcceptedAndOnceAsDuplicate() {
        InboundMessage m = message(shard("shard", "2"), Map.of());
        BatchResult r = ingest.handle(List.of(m, m));

        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(r.eventsAccepted() + r.duplicates()).isEqualTo(2);
        assertThat(r.eventsAccepted()).isEqualTo(1);
    }
}
