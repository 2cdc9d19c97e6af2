package dev.fanin.aws.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SQS's system attributes as the core's delivery facts: the attempt and the sent time, with a default for each. */
class SqsDeliveriesTest {

    private static final Instant RECEIVED = Instant.parse("2026-11-29T10:00:02Z");

    @ParameterizedTest(name = "SentTimestamp [{0}], ApproximateReceiveCount [{1}]: sent {2}, attempt {3}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "1795946400000 | 1   | 2026-11-29T10:00:00Z | 1",
            "1795946400000 | 5   | 2026-11-29T10:00:00Z | 5",
            "-             | -   | -                    | 1",
            "not-a-time    | two | -                    | 1",
            "-12           | 0   | -                    | 1",
            "1795946400000 | -3  | 2026-11-29T10:00:00Z | 1",
    })
    void theAttemptAndSentTimeComeFromTheSystemAttributes(String sentTimestamp, String receiveCount, String sentAt, int attempt) {
        Map<String, String> attributes = new HashMap<>();
        if (sentTimestamp != null) {
            attributes.put("SentTimestamp", sentTimestamp);
        }
        if (receiveCount != null) {
            attributes.put("ApproximateReceiveCount", receiveCount);
        }

        InboundMessage m = SqsDeliveries.inbound("m-1", "{}", attributes, RECEIVED);

        assertThat(m.attempt()).isEqualTo(attempt);
        assertThat(m.sentAt()).isEqualTo(sentAt == null ? java.util.Optional.empty() : java.util.Optional.of(Instant.parse(sentAt)));
        assertThat(m.sentAtOrReceivedAt()).isEqualTo(sentAt == null ? RECEIVED : Instant.parse(sentAt));
        assertThat(m.attributes()).as("SQS's own facts do not go with the dead letter").isEmpty();
    }

    @ParameterizedTest(name = "producer attributes {0}")
    @CsvSource(delimiter = '|', value = {"tenant=acme", "tenant=acme;retries=3", "trace="})
    void theProducersAttributesGoWithTheMessage(String given) {
        Map<String, String> producer = new HashMap<>();
        for (String pair : given.split(";")) {
            producer.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }

        InboundMessage m = SqsDeliveries.inbound("m-1", "{}", SqsDeliveries.systemAttributes(RECEIVED, 2), producer, RECEIVED);

        assertThat(m.attributes()).isEqualTo(producer);
        assertThat(m.attempt()).isEqualTo(2);
    }

    @ParameterizedTest(name = "fanin-original-message-id \"{0}\" -> {1}")
    @CsvSource(value = {"first-id, first-id", "'', m-1", "-, m-1"}, nullValues = "-")
    void aRedrivenMessageStandsForTheMessageItReSends(String original, String expected) {
        Map<String, String> producer = new HashMap<>(Map.of("tenant", "acme"));
        if (original != null) {
            producer.put(SqsDeadLetters.ORIGINAL_ID_ATTRIBUTE, original);
        }

        InboundMessage m = SqsDeliveries.inbound("m-1", "{}", SqsDeliveries.systemAttributes(RECEIVED, 1), producer, RECEIVED);

        assertThat(m.messageId()).isEqualTo("m-1");
        assertThat(m.originalMessageId()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "sent at {0}, receive {1}")
    @CsvSource({"2026-11-29T10:00:00Z, 1", "2026-11-29T10:00:00.123Z, 4"})
    void theAttributesSqsWouldGiveReadBackAsTheSameFacts(String sent, int receiveCount) {
        InboundMessage m = SqsDeliveries.inbound("m-1", "{}", SqsDeliveries.systemAttributes(Instant.parse(sent), receiveCount), RECEIVED);

        assertThat(m.sentAt()).contains(Instant.parse(sent));
        assertThat(m.attempt()).isEqualTo(receiveCount);
        assertThat(m.redelivered()).isEqualTo(receiveCount > 1);
    }
}
