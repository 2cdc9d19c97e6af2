package dev.fanin.core.intake;

import static dev.fanin.core.intake.Messages.json;
import static dev.fanin.core.intake.Messages.message;
import static dev.fanin.core.intake.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.Envelope;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventIdTest {

    private final MessageIntake withPath = new MessageIntake(PipelineFixture.config(pipeline("p").eventId("$.eid")));
    private final MessageIntake withoutPath = new MessageIntake(PipelineFixture.config(pipeline("p")));

    @Test
    void eventIdIsTheScalarTextAtThePath() {
        assertThat(withPath.parse(message(json("{'id':'k','eid':'evt-9'}"))).accepted().get(0).eventId()).isEqualTo("evt-9");
        assertThat(withPath.parse(message(json("{'id':'k','eid':3}"))).accepted().get(0).eventId()).isEqualTo("3");
    }

    @Test
    void withoutAPathTheSqsMessageIdIsTheEventId() {
        assertThat(withoutPath.parse(message(json("{'id':'k'}"))).accepted().get(0).eventId()).isEqualTo("msg-1");
    }

    @Test
    void s3RecordsWithoutAPathUseTheObjectKeyAsTheLoaderDefaultDoes() {
        MessageIntake s3 = new MessageIntake(PipelineFixture.config(pipeline("u").envelope(Envelope.S3).key("$.s3.bucket.name")));
        MessageIntake loaded = new MessageIntake(ConfigLoader.load("version: 1\npipelines:\n  - name: u\n    envelope: s3\n"
                + "    key: [$.s3.bucket.name]\n    triggers: {maxLifetime: 1h}\n", "test"));
        String noKey = EnvelopeSelectionTest.s3Record("b", "k", "01").replace("\"key\":\"k\"", "\"etag\":\"x\"");
        String body = EnvelopeSelectionTest.s3(EnvelopeSelectionTest.s3Record("b", "k", "01"), EnvelopeSelectionTest.s3Record("b", "k", "02"), noKey);

        for (MessageIntake intake : List.of(s3, loaded)) {
            IntakeResult result = intake.parse(message(body));
            // A re-upload of the same key (another sequencer) is the same event: one object, counted once.
            assertThat(result.accepted()).extracting(e -> e.eventId()).containsExactly("k", "k");
            assertThat(result.rejected()).singleElement().satisfies(r -> {
                assertThat(r.reason()).isEqualTo(RejectionReason.MISSING_EVENT_ID);
                assertThat(r.detail()).isEqualTo("event id $.s3.object.key is absent");
                assertThat(r.recordIndex()).isEqualTo(2);
            });
        }
    }

    static Stream<Arguments> badIds() {
        return Stream.of(
                Arguments.of("{'id':'k'}", RejectionReason.MISSING_EVENT_ID, "event id $.eid is absent"),
                Arguments.of("{'id':'k','eid':null}", RejectionReason.MISSING_EVENT_ID, "event id $.eid is null"),
                Arguments.of("{'id':'k','eid':''}", RejectionReason.MISSING_EVENT_ID, "event id $.eid is the empty string"),
                Arguments.of("{'id':'k','eid':{'v':1}}", RejectionReason.EVENT_ID_NOT_SCALAR, "event id $.eid is an object {\"v\":1}"),
                Arguments.of("{'id':'k','eid':'a\\ud800'}", RejectionReason.EVENT_ID_CONTROL_CHARACTERS,
                        "event id $.eid has an unpaired UTF-16 surrogate U+D800 at index 1: \"a\\uD800\""),
                Arguments.of("{'id':'k','eid':'a\\udbff'}", RejectionReason.EVENT_ID_CONTROL_CHARACTERS,
                        "event id $.eid has an unpaired UTF-16 surrogate U+DBFF at index 1"),
                Arguments.of("{'id':'k','eid':'\\udc00'}", RejectionReason.EVENT_ID_CONTROL_CHARACTERS,
                        "event id $.eid has an unpaired UTF-16 surrogate U+DC00 at index 0"),
                Arguments.of("{'id':'k','eid':'evt-1\\n'}", RejectionReason.EVENT_ID_CONTROL_CHARACTERS,
                        "event id $.eid has control character U+000A at index 5: \"evt-1\\n\""),
                Arguments.of("{'id':'k','eid':'a\\u0000b'}", RejectionReason.EVENT_ID_CONTROL_CHARACTERS,
                        "control character U+0000 at index 1"));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("badIds")
    void rejectsUnusableEventIds(String body, RejectionReason reason, String detail) {
        IntakeResult result = withPath.parse(message(json(body)));

        assertThat(result.rejected()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(reason);
            assertThat(r.detail()).contains(detail);
        });
    }

    @Test
    void idsThatDifferOnlyInAnUnpairedSurrogateAreRefusedNotMerged() {
        // Hashed as UTF-8 they were all "a?": three events counted as one.
        assertThat(withPath.parse(message(json("{'id':'k','eid':'a?'}"))).accepted()).hasSize(1);
        for (String id : new String[] {"a\\ud800", "a\\udbff", "a\\udfff"}) {
            assertThat(withPath.parse(message(json("{'id':'k','eid':'" + id + "'}"))).rejected())
                    .singleElement().extracting(Rejected::reason).isEqualTo(RejectionReason.EVENT_ID_CONTROL_CHARACTERS);
        }
        assertThat(withPath.parse(message(json("{'id':'k','eid':'a\ud83d\ude80\u00e9\ufffd\uffff'}"))).accepted())
                .as("paired surrogates and every other character are kept").hasSize(1);
    }

    @Test
    void eventIdOfExactly1024BytesIsAccepted() {
        String id = "x".repeat(1024);

        assertThat(withPath.parse(message(json("{'id':'k','eid':'" + id + "'}"))).accepted().get(0).eventId()).isEqualTo(id);
    }

    @Test
    void longerIdsAreKeptAsTheirSha256SoTheSameLongIdIsStillOneEvent() {
        String a = "x".repeat(1025);
        String b = "x".repeat(1024) + "y";

        String idA = withPath.parse(message(json("{'id':'k','eid':'" + a + "'}"))).accepted().get(0).eventId();
        String again = withPath.parse(message(json("{'id':'k','eid':'" + a + "'}"))).accepted().get(0).eventId();
        String idB = withPath.parse(message(json("{'id':'k','eid':'" + b + "'}"))).accepted().get(0).eventId();

        assertThat(idA).matches("sha256:[0-9a-f]{64}").isEqualTo(again).isNotEqualTo(idB);
        // SHA-256 of 1,025 "x" (sha256sum of the same bytes).
        assertThat(idA).isEqualTo("sha256:c6d8e9905300876046729949cc95c2385221270d389176f7234fe7ac00c4e430");
    }

    @Test
    void anS3KeyUrlEncodedPast1024BytesIsCountedNotDeadLettered() {
        MessageIntake s3 = new MessageIntake(PipelineFixture.config(pipeline("u").envelope(Envelope.S3).key("$.s3.bucket.name")));
        // 400 characters of a 1,024-byte limit, each encoded as %XX in the notification: 1,200 bytes.
        String encoded = "%3D".repeat(400);
        String body = EnvelopeSelectionTest.s3(EnvelopeSelectionTest.s3Record("b", encoded, "01"));

        IntakeResult result = s3.parse(message(body));

        assertThat(result.rejected()).isEmpty();
        assertThat(result.accepted()).singleElement().extracting(e -> e.eventId()).asString().startsWith("sha256:");
    }
}
