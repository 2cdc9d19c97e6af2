package dev.fanin.core.intake;

import static dev.fanin.core.intake.Messages.json;
import static dev.fanin.core.intake.Messages.message;
import static dev.fanin.core.intake.PipelineFixture.equalTo;
import static dev.fanin.core.intake.PipelineFixture.extract;
import static dev.fanin.core.intake.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.Envelope;
import dev.fanin.core.event.Event;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class EnvelopeSelectionTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static final String ALERT = json("{'service':'payments-api','resource':'i-1','severity':'HIGH'}");

    static String eventBridge(String source, String detail) {
        return json("{'version':'0','id':'eb-1','detail-type':'Resource Alert','source':'" + source
                + "','account':'111122223333','time':'2026-11-29T09:59:58Z','region':'eu-west-1','resources':[],'detail':") + detail + "}";
    }

    static String sns(String message) {
        ObjectNode body = MAPPER.createObjectNode().put("Type", "Notification").put("MessageId", "sns-1")
                .put("TopicArn", "arn:aws:sns:eu-west-1:111122223333:custom-alerts").put("Message", message)
                .put("Timestamp", "2026-11-29T09:59:59.000Z");
        return body.toString();
    }

    static String s3Record(String bucket, String key, String sequencer) {
        return json("{'eventVersion':'2.1','eventSource':'aws:s3','awsRegion':'eu-west-1','eventTime':'2026-11-29T09:59:57.000Z',"
                + "'eventName':'ObjectCreated:Put','s3':{'bucket':{'name':'" + bucket + "'},'object':{'key':'" + key
                + "','size':10,'sequencer':'" + sequencer + "'}}}");
    }

    static String s3(String... records) {
        return "{\"Records\":[" + String.join(",", records) + "]}";
    }

    static final String S3_TEST_EVENT = json("{'Service':'Amazon S3','Event':'s3:TestEvent','Time':'2026-11-29T09:00:00Z',"
            + "'Bucket':'acme-ingest','RequestId':'R1','HostId':'H1'}");

    private final MessageIntake intake = new MessageIntake(PipelineFixture.config(
            pipeline("eb").envelope(Envelope.EVENTBRIDGE).when(equalTo("$envelope.source", "custom.alerts"))
                    .key("$envelope.account", "$.service").eventId("$envelope.id"),
            pipeline("sns").envelope(Envelope.SNS).when(equalTo("$.kind", "sns-alert")).key("$.service"),
            pipeline("uploads").envelope(Envelope.S3).when(equalTo("$.s3.bucket.name", "acme-ingest"))
                    .key(extract("$.s3.object.key", "^(.*)/[^/]+$")),
            pipeline("raw").envelope(Envelope.RAW).when(equalTo("$.type", "shard.done")).key("$.jobId")));

    static Stream<Arguments> oneEventPerEnvelope() {
        return Stream.of(
                Arguments.of("EventBridge", eventBridge("custom.alerts", ALERT), "eb", "111122223333|payments-api", "service"),
                Arguments.of("SNS", sns(json("{'kind':'sns-alert','service':'orders-db'}")), "sns", "orders-db", "kind"),
                Arguments.of("S3", s3(s3Record("acme-ingest", "uploads/batch-7/part-001.csv", "0A")), "uploads", "uploads/batch-7", "s3"),
                Arguments.of("S3 through SNS", sns(s3(s3Record("acme-ingest", "uploads/batch-9/a.csv", "0B"))), "uploads", "uploads/batch-9", "s3"),
                Arguments.of("RAW", json("{'type':'shard.done','jobId':'nightly-etl'}"), "raw", "nightly-etl", "jobId"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneEventPerEnvelope")
    void unwrapsEachEnvelopeAndChoosesItsPipeline(String name, String body, String pipeline, String key, String payloadField) {
        IntakeResult result = intake.parse(message(body));

        assertThat(result.rejected()).isEmpty();
        assertThat(result.accepted()).singleElement().satisfies(e -> {
            assertThat(e.pipeline()).isEqualTo(pipeline);
            assertThat(e.key()).isEqualTo(key);
            assertThat(e.payload().has(payloadField)).isTrue();
            assertThat(e.sourceMessageId()).isEqualTo("msg-1");
        });
    }

    @Test
    void eventBridgePayloadIsDetailAndEnvelopeIsTheWholeBody() {
        Event e = intake.parse(message(eventBridge("custom.alerts", ALERT))).accepted().get(0);

        assertThat(e.payload().path("resource").asText()).isEqualTo("i-1");
        assertThat(e.envelope().path("detail-type").asText()).isEqualTo("Resource Alert");
        assertThat(e.eventId()).isEqualTo("eb-1");
    }

    @Test
    void s3RecordIsBothPayloadAndEnvelopeAndEachRecordIsOneEvent() {
        IntakeResult result = intake.parse(message(s3(s3Record("acme-ingest", "uploads/b/1.csv", "01"),
                s3Record("acme-ingest", "uploads/b/2.csv", "02"))));

        assertThat(result.accepted()).extracting(Event::eventId)
                .containsExactly("uploads/b/1.csv", "uploads/b/2.csv");
        assertThat(result.accepted().get(1).envelope()).isSameAs(result.accepted().get(1).payload());
    }

    @Test
    void s3PartialAcceptanceRejectsOnlyTheBadRecordWithItsIndex() {
        IntakeResult result = intake.parse(message(s3(s3Record("acme-ingest", "uploads/b/1.csv", "01"),
                s3Record("acme-ingest", "README", "02"), s3Record("other-bucket", "x/y.csv", "03"))));

        assertThat(result.accepted()).extracting(Event::key).containsExactly("uploads/b");
        assertThat(result.rejected()).hasSize(2);
        assertThat(result.rejected().get(0)).satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.MISSING_KEY);
            assertThat(r.recordIndex()).isEqualTo(1);
            assertThat(r.pipeline()).isEqualTo("uploads");
            assertThat(r.detail()).contains("$.s3.object.key ~ /^(.*)/[^/]+$/").contains("\"README\"");
        });
        assertThat(result.rejected().get(1)).satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.NO_MATCHING_PIPELINE);
            assertThat(r.recordIndex()).isEqualTo(2);
            assertThat(r.detail()).contains("record 2").contains("\"x/y.csv\"");
        });
    }

    /** A record not from S3 is refused on its own; the whole message was refused as an envelope mismatch (a review). */
    @Test
    void aRecordNotFromS3IsRefusedOnItsOwnAndItsNeighboursRead() {
        IntakeResult result = intake.parse(message(s3(s3Record("acme-ingest", "uploads/b/1.csv", "01"),
                json("{'eventSource':'aws:sqs','body':'x'}"), "\"x\"")));

        assertThat(result.accepted()).extracting(Event::key).containsExactly("uploads/b");
        assertThat(result.rejected()).extracting(Rejected::reason).containsExactly(RejectionReason.NOT_AN_S3_RECORD,
                RejectionReason.NOT_AN_S3_RECORD);
        assertThat(result.rejected()).extracting(Rejected::recordIndex).containsExactly(1, 2);
        assertThat(result.rejected().get(0).detail()).isEqualTo("record 1 is from eventSource \"aws:sqs\", expected \"aws:s3\"");
        assertThat(result.rejected().get(1).detail()).isEqualTo("record 2 is a string \"x\", expected \"aws:s3\"");
    }

    @Test
    void s3RecordsAreMatchedOneByOneAmongS3Pipelines() {
        MessageIntake twoBuckets = new MessageIntake(PipelineFixture.config(
                pipeline("a").envelope(Envelope.S3).when(equalTo("$.s3.bucket.name", "bucket-a")).key("$.s3.object.key"),
                pipeline("b").envelope(Envelope.S3).when(equalTo("$.s3.bucket.name", "bucket-b")).key("$.s3.object.key")));

        IntakeResult result = twoBuckets.parse(message(s3(s3Record("bucket-b", "k1", "01"), s3Record("bucket-a", "k2", "02"))));

        assertThat(result.accepted()).extracting(Event::pipeline).containsExactly("b", "a");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("testEvents")
    void s3TestEventIsIgnoredNotDeadLettered(String name, String body) {
        IntakeResult result = intake.parse(message(body));

        assertThat(result.accepted()).isEmpty();
        assertThat(result.rejected()).isEmpty();
        assertThat(result.ignored()).singleElement().satisfies(i -> {
            assertThat(i.reason()).isEqualTo(IgnoreReason.S3_TEST_EVENT);
            assertThat(i.detail()).contains("\"acme-ingest\"");
            assertThat(i.pipeline()).isEqualTo("uploads");
        });
    }

    /** An sns pipeline first, reading every notification, took S3's test event through SNS for its own (a review). */
    @Test
    void s3TestEventThroughSnsIsIgnoredAlsoWhenAnSnsPipelineComesFirst() {
        MessageIntake snsFirst = new MessageIntake(PipelineFixture.config(
                pipeline("any-sns").envelope(Envelope.SNS).key("$.id"),
                pipeline("uploads").envelope(Envelope.S3).key("$.s3.bucket.name")));

        IntakeResult result = snsFirst.parse(message(sns(S3_TEST_EVENT)));

        assertThat(result.accepted()).isEmpty();
        assertThat(result.ignored()).singleElement().satisfies(i -> {
            assertThat(i.reason()).isEqualTo(IgnoreReason.S3_TEST_EVENT);
            assertThat(i.pipeline()).isEqualTo("uploads");
        });
    }

    static Stream<Arguments> testEvents() {
        return Stream.of(Arguments.of("direct", S3_TEST_EVENT), Arguments.of("through SNS", sns(S3_TEST_EVENT)));
    }

    @Test
    void firstMatchingPipelineInConfigOrderWins() {
        MessageIntake ordered = new MessageIntake(PipelineFixture.config(
                pipeline("specific").when(equalTo("$.type", "shard.done")).key("$.jobId"),
                pipeline("catch-all").key("$.jobId")));

        assertThat(ordered.parse(message(json("{'type':'shard.done','jobId':'j'}"))).accepted().get(0).pipeline()).isEqualTo("specific");
        assertThat(ordered.parse(message(json("{'type':'other','jobId':'j'}"))).accepted().get(0).pipeline()).isEqualTo("catch-all");
    }

    @Test
    void unmatchedPipelineWithAnotherEnvelopeDoesNotStealTheMessage() {
        // The EventBridge body has a top-level 'source'; the SNS pipeline never reads it because the body is not SNS.
        IntakeResult result = intake.parse(message(eventBridge("custom.alerts", ALERT)));

        assertThat(result.accepted()).extracting(Event::pipeline).containsExactly("eb");
    }

    @Test
    void noMatchingPipelineSaysWhichEnvelopeWasDetected() {
        assertNoMatch(eventBridge("aws.health", ALERT), "an EventBridge event (source \"aws.health\", detail-type \"Resource Alert\")");
        assertNoMatch(sns(json("{'kind':'other'}")), "an SNS notification (topic \"arn:aws:sns:eu-west-1:111122223333:custom-alerts\") carrying JSON with fields [kind]");
        assertNoMatch(s3(s3Record("other-bucket", "a/b", "01")), "an S3 notification with 1 record(s), bucket \"other-bucket\"");
        assertNoMatch(json("{'type':'deploy','app':'x'}"), "plain JSON with no recognised envelope (RAW), fields [type, app]");
    }

    private void assertNoMatch(String body, String description) {
        assertThat(intake.parse(message(body)).rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.NO_MATCHING_PIPELINE);
            assertThat(r.detail()).contains(description).contains("eb (EVENTBRIDGE), sns (SNS), uploads (S3), raw (RAW)");
            assertThat(r.pipeline()).isNull();
        });
    }

    @Test
    void envelopeMismatchNamesBothEnvelopes() {
        // SNS raw message delivery switched on: the body is the message itself, not a notification.
        IntakeResult result = intake.parse(message(json("{'kind':'sns-alert','service':'orders-db'}")));

        assertThat(result.rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.ENVELOPE_MISMATCH);
            assertThat(r.pipeline()).isEqualTo("sns");
            assertThat(r.detail()).contains("configured with envelope SNS").contains("holds when the body is read as RAW").contains("plain JSON");
        });
    }

    @Test
    void envelopeMismatchWhenAnEventBridgeEventReachesARawPipeline() {
        MessageIntake rawOnly = new MessageIntake(PipelineFixture.config(
                pipeline("raw-alerts").when(equalTo("$.severity", "HIGH")).key("$.service")));

        Rejected r = rawOnly.parse(message(eventBridge("custom.alerts", ALERT))).rejected().get(0);

        assertThat(r.reason()).isEqualTo(RejectionReason.ENVELOPE_MISMATCH);
        assertThat(r.detail()).contains("configured with envelope RAW").contains("holds when the body is read as EVENTBRIDGE").contains("an EventBridge event");
    }

    @ParameterizedTest(name = "detail {0}")
    @ValueSource(strings = {"null", "\"a string\"", "[1]", "absent"})
    void anEventBridgeEventWithoutADetailObjectSaysSoInsteadOfSuggestingRaw(String detail) {
        // A pipeline reading $envelope fields only would hold when read as RAW: that is not the fix.
        MessageIntake byEnvelope = new MessageIntake(PipelineFixture.config(pipeline("eb").envelope(Envelope.EVENTBRIDGE)
                .when(equalTo("$envelope.source", "custom.alerts")).key("$envelope.account")));
        String body = detail.equals("absent") ? eventBridge("custom.alerts", "null").replace(",\"detail\":null", "")
                : eventBridge("custom.alerts", detail);

        Rejected r = byEnvelope.parse(message(body)).rejected().get(0);

        assertThat(r.reason()).isEqualTo(RejectionReason.NOT_A_JSON_OBJECT);
        assertThat(r.detail()).startsWith("$envelope.detail of this EventBridge event (source \"custom.alerts\"")
                .contains(detail.equals("absent") ? "is absent" : "is ").contains("send a JSON object as Detail")
                .doesNotContain("read as RAW");
    }

    @Test
    void snsMessageThatIsNotJsonIsMalformedAtTheMessageField() {
        Rejected r = intake.parse(message(sns("{\"kind\":\"sns-alert\","))).rejected().get(0);

        assertThat(r.reason()).isEqualTo(RejectionReason.MALFORMED_JSON);
        assertThat(r.detail()).startsWith("$envelope.Message is not valid JSON at line 1, column");
    }

    @Test
    void snsMessageThatIsJsonButNotAnObjectIsRejected() {
        Rejected r = intake.parse(message(sns("42"))).rejected().get(0);

        assertThat(r.reason()).isEqualTo(RejectionReason.NOT_A_JSON_OBJECT);
        assertThat(r.detail()).contains("$envelope.Message is a number 42");
    }

    @Test
    void snsMessageGetsTheSameDepthLimitAsTheBody() {
        Rejected r = intake.parse(message(sns("{\"kind\":" + "[".repeat(80) + "]".repeat(80) + "}"))).rejected().get(0);

        assertThat(r.reason()).isEqualTo(RejectionReason.JSON_TOO_COMPLEX);
        assertThat(r.detail()).startsWith("$envelope.Message exceeds a parser limit at line 1");
    }

    @Test
    void parseNeverThrowsAndReportsAnInternalError() {
        // A message without an id cannot become an Event: an unexpected failure, caught and reported.
        InboundMessage noId = new InboundMessage(null, json("{'type':'shard.done','jobId':'j'}"), null, Messages.RECEIVED);

        IntakeResult result = intake.parse(noId);

        assertThat(result.rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectionReason.INTERNAL_ERROR);
            assertThat(r.detail()).contains("NullPointerException");
        });
    }
}
