package dev.fanin.core.intake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.event.Event;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the repository's sample events (the files {@code sam local invoke -e} uses) through intake with the sample
 * pipelines' intake settings, and checks that the files are SQS events exactly as Lambda delivers them.
 */
class IntakeSampleEventsTest {

    static final Path EVENTS = Path.of("../../events");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final MessageIntake intake = new MessageIntake(SamplePipelines.all());

    static JsonNode load(String file) throws IOException {
        return MAPPER.readTree(Files.readString(EVENTS.resolve(file)));
    }

    /** One SQS record as the ingest handler will hand it to intake; received one second after it was sent. */
    static InboundMessage inbound(JsonNode record) {
        Map<String, String> attributes = new HashMap<>();
        for (Map.Entry<String, JsonNode> field : record.path("attributes").properties()) {
            attributes.put(field.getKey(), field.getValue().asText());
        }
        Instant sent = Instant.ofEpochMilli(Long.parseLong(attributes.get("SentTimestamp")));
        return new InboundMessage(record.path("messageId").asText(), record.path("body").asText(),
                Integer.parseInt(attributes.get("ApproximateReceiveCount")), sent, sent.plusSeconds(1), attributes);
    }

    private List<IntakeResult> parseAll(String file) throws IOException {
        List<IntakeResult> results = new ArrayList<>();
        for (JsonNode record : load(file).path("Records")) {
            results.add(intake.parse(inbound(record)));
        }
        return results;
    }

    private static List<Event> accepted(List<IntakeResult> results) {
        return results.stream().flatMap(r -> r.accepted().stream()).toList();
    }

    static Stream<String> sqsEventFiles() throws IOException {
        try (Stream<Path> files = Files.list(EVENTS)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("sqs-")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("sqsEventFiles")
    void everySqsFileIsAnSqsEventAsLambdaDeliversIt(String file) throws Exception {
        JsonNode records = load(file).path("Records");

        assertThat(records.isArray() && records.size() > 0).isTrue();
        for (JsonNode record : records) {
            assertThat(record.path("eventSource").asText()).isEqualTo("aws:sqs");
            assertThat(record.path("eventSourceARN").asText()).startsWith("arn:aws:sqs:eu-west-1:111122223333:");
            assertThat(record.path("awsRegion").asText()).isEqualTo("eu-west-1");
            assertThat(record.path("receiptHandle").asText()).isNotBlank();
            assertThat(record.path("messageAttributes").isObject()).isTrue();
            assertThat(record.path("attributes").path("ApproximateReceiveCount").asText()).matches("\\d+");
            assertThat(record.path("attributes").path("SenderId").asText()).isNotBlank();
            assertThat(Long.parseLong(record.path("attributes").path("ApproximateFirstReceiveTimestamp").asText()))
                    .isGreaterThanOrEqualTo(Long.parseLong(record.path("attributes").path("SentTimestamp").asText()));
            assertThat(Instant.ofEpochMilli(Long.parseLong(record.path("attributes").path("SentTimestamp").asText())))
                    .isBetween(Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2027-01-01T00:00:00Z"));
            assertThat(record.path("md5OfBody").asText()).isEqualTo(md5(record.path("body").asText()));
        }
    }

    @Test
    void eventBridgeAlertsGoToAlertStormWithOneDuplicateId() throws IOException {
        List<IntakeResult> results = parseAll("sqs-eventbridge-alerts.json");
        List<Event> events = accepted(results);

        assertThat(results).allSatisfy(r -> assertThat(r.rejected()).isEmpty());
        assertThat(events).hasSize(4).allSatisfy(e -> {
            assertThat(e.pipeline()).isEqualTo("alert-storm");
            assertThat(e.key()).isEqualTo("111122223333|eu-west-1|payments-api");
            assertThat(e.eventTimeIsFallback()).isFalse();
        });
        assertThat(events.stream().map(e -> e.payload().path("resource").asText()).distinct()).hasSize(3);
        assertThat(events.stream().map(Event::eventId).distinct()).hasSize(3);
        assertThat(events.get(3).eventId()).isEqualTo(events.get(0).eventId());
        assertThat(events.get(3).sourceMessageId()).isNotEqualTo(events.get(0).sourceMessageId());
    }

    @Test
    void snsAlertsGoToAlertStormSns() throws IOException {
        List<Event> events = accepted(parseAll("sqs-sns-alerts.json"));

        assertThat(events).extracting(Event::eventId).containsExactly("alrt-7f3e21", "alrt-7f3e22", "alrt-7f3e23");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.pipeline()).isEqualTo("alert-storm-sns");
            assertThat(e.key()).isEqualTo("111122223333|eu-west-1|orders-db");
            assertThat(e.envelope().path("Type").asText()).isEqualTo("Notification");
        });
    }

    @Test
    void s3UploadsGoToFileUploadsOneEventPerRecord() throws IOException {
        List<IntakeResult> results = parseAll("sqs-s3-uploads.json");

        assertThat(results).extracting(r -> r.accepted().size()).containsExactly(2, 1, 1);
        assertThat(accepted(results)).allSatisfy(e -> {
            assertThat(e.pipeline()).isEqualTo("file-uploads");
            assertThat(e.key()).isEqualTo("uploads/batch-7");
        });
        assertThat(accepted(results)).extracting(e -> e.payload().path("s3").path("object").path("key").asText()).containsExactly(
                "uploads/batch-7/part-001.csv", "uploads/batch-7/part-002.csv", "uploads/batch-7/part-003.csv",
                "uploads/batch-7/_manifest-3.json");
        assertThat(accepted(results)).extracting(Event::eventId).doesNotHaveDuplicates().allMatch(id -> id.startsWith("uploads/batch-7/"));
    }

    @Test
    void shardCompletionsGoToShardCompletionsWithTheRetriedShardAsADuplicate() throws IOException {
        List<Event> events = accepted(parseAll("sqs-raw-shards.json"));

        assertThat(events).extracting(Event::eventId).containsExactly("0", "1", "2", "2", "3");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.pipeline()).isEqualTo("shard-completions");
            assertThat(e.key()).isEqualTo("nightly-etl|2026-11-29");
        });
        assertThat(events.get(0).eventTime()).isEqualTo(Instant.parse("2026-11-29T02:15:05.300Z"));
    }

    @Test
    void badMessagesEachEndWithTheirReasonAndNothingVanishes() throws IOException {
        List<IntakeResult> results = parseAll("sqs-bad-messages.json");

        // One line per record of events/sqs-bad-messages.json, in order.
        List<String> expected = List.of(
                "rejected MALFORMED_JSON",
                "rejected MALFORMED_JSON",
                "rejected MALFORMED_JSON",
                "rejected NOT_A_JSON_OBJECT",
                "rejected JSON_TOO_COMPLEX",
                "rejected KEY_NOT_SCALAR",
                "rejected MISSING_KEY",
                "rejected KEY_CONTROL_CHARACTERS",
                "rejected UNPARSABLE_EVENT_TIME",
                "rejected EVENT_TIME_OUT_OF_RANGE",
                "rejected NO_MATCHING_PIPELINE",
                "rejected ENVELOPE_MISMATCH",
                "ignored S3_TEST_EVENT",
                "accepted file-uploads, rejected MISSING_KEY");
        assertThat(results).extracting(IntakeSampleEventsTest::outcome).containsExactlyElementsOf(expected);
        assertThat(results).allSatisfy(r -> assertThat(r.accepted().size() + r.rejected().size() + r.ignored().size()).isPositive());
        assertThat(results.get(11).rejected().get(0).detail()).contains("'alert-storm-sns' is configured with envelope SNS");
        assertThat(results.get(13).rejected().get(0).recordIndex()).isEqualTo(1);
    }

    private static String outcome(IntakeResult r) {
        List<String> parts = new ArrayList<>();
        if (!r.accepted().isEmpty()) {
            parts.add("accepted " + r.accepted().stream().map(Event::pipeline).distinct().collect(Collectors.joining("+")));
        }
        r.rejected().forEach(x -> parts.add("rejected " + x.reason()));
        r.ignored().forEach(x -> parts.add("ignored " + x.reason()));
        return String.join(", ", parts);
    }

    @Test
    void timerMessageHasExactlyItsFiveFields() throws IOException {
        JsonNode records = load("sqs-timer.json").path("Records");
        JsonNode body = MAPPER.readTree(records.get(0).path("body").asText());

        assertThat(records).hasSize(1);
        assertThat(iterable(body.fieldNames())).containsExactlyInAnyOrder("pipeline", "key", "windowId", "dueAt", "chain");
        assertThat(body.path("chain").isIntegralNumber()).isTrue();
        assertThat(body.path("windowId").asText()).matches("[ST]\\d{15}");
        assertThat(Instant.parse(body.path("dueAt").asText())).isAfter(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void scheduledSweepIsAnEventBridgeScheduledEvent() throws IOException {
        JsonNode sweep = load("scheduled-sweep.json");

        assertThat(sweep.path("detail-type").asText()).isEqualTo("Scheduled Event");
        assertThat(sweep.path("source").asText()).isEqualTo("aws.events");
        assertThat(sweep.path("resources").get(0).asText()).startsWith("arn:aws:events:eu-west-1:111122223333:rule/");
        assertThat(Set.of("version", "id", "account", "time", "region", "detail")).allMatch(sweep::has);
    }

    private static List<String> iterable(Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    private static String md5(String body) throws NoSuchAlgorithmException {
        byte[] digest = MessageDigest.getInstance("MD5").digest(body.getBytes(StandardCharsets.UTF_8));
        return String.format("%032x", new BigInteger(1, digest));
    }
}
