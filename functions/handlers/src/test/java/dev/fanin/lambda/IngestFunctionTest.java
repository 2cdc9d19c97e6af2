package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ingest function on the local endpoint with the template's resources, fed the real sample events: one test
 * per envelope, each checking the windows in the table and what reached the bus.
 */
class IngestFunctionTest {

    private static final Duration EMIT_WAIT = Duration.ofSeconds(10);
    private static final Duration SETTLE = Duration.ofSeconds(1);

    private static SQSBatchResponse ingest(LocalFanin fanin, SQSEvent event) {
        return new IngestFunction(fanin.runtime).handleRequest(event, TestContexts.invocation("ingest-" + System.nanoTime()));
    }

    @Test
    void rawShardCompletionsFillOneDayWindowAndCloseWhenEveryShardHasReported() {
        SQSEvent event = SampleEvents.sqs("sqs-raw-shards.json");
        LocalFanin fanin = LocalFanin.start("raw", SampleEvents.lastSent(event).plusSeconds(1));

        SQSBatchResponse response = ingest(fanin, event);

        assertThat(response.getBatchItemFailures()).isEmpty();
        long day = Instant.parse("2026-11-29T00:00:00Z").toEpochMilli();
        List<WindowState> windows = fanin.windows("shard-completions", "nightly-etl|2026-11-29");
        assertThat(windows).singleElement().satisfies(w -> {
            assertThat(w.ref().windowId()).isEqualTo(WindowRef.timeWindowId(day));
            assertThat(w.bounds()).isEqualTo(new Interval(day, day + Duration.ofDays(1).toMillis()));
            assertThat(w.status()).isEqualTo(WindowStatus.CLOSED);
            assertThat(w.committedRevision()).isZero();
        });
        JsonNode aggregate = fanin.aggregates(1, EMIT_WAIT, SETTLE).get(0);
        assertThat(aggregate.path("pipeline").asText()).isEqualTo("shard-completions");
        assertThat(aggregate.path("closeReason").asText()).isEqualTo("EXPECTED_COMPLETE");
        assertThat(aggregate.path("complete").asBoolean()).isTrue();
        assertThat(aggregate.path("seen").asInt()).isEqualTo(4);
        assertThat(aggregate.path("aggregations").path("shards").asInt()).as("the retried shard 2 counts once").isEqualTo(4);
        assertThat(aggregate.path("aggregations").path("rows").path("value").asLong()).isEqualTo(1200 + 1214 + 1187 + 1199);
        assertThat(aggregate.path("aggregations").path("slowestMs").path("value").asLong()).isEqualTo(6011);
    }

    @Test
    void anInvocationOutOfTimeHandsItsBatchBackAndTheRedeliveryAppliesIt() {
        SQSEvent event = SampleEvents.sqs("sqs-raw-shards.json");
        LocalFanin fanin = LocalFanin.start("late", SampleEvents.lastSent(event).plusSeconds(1));

        SQSBatchResponse outOfTime = new IngestFunction(fanin.runtime).handleRequest(event, TestContexts.invocation("no-time", 0));

        assertThat(outOfTime.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactlyInAnyOrderElementsOf(event.getRecords().stream().map(SQSEvent.SQSMessage::getMessageId).toList());
        assertThat(fanin.windows("shard-completions", "nightly-etl|2026-11-29")).isEmpty();

        assertThat(ingest(fanin, event).getBatchItemFailures()).isEmpty();
        assertThat(fanin.windows("shard-completions", "nightly-etl|2026-11-29")).singleElement()
                .satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
    }

    @Test
    void eventBridgeAlertsOpenOneSessionCountingTheRetriedAlertOnceAndArmItsTimer() {
        SQSEvent event = SampleEvents.sqs("sqs-eventbridge-alerts.json");
        LocalFanin fanin = LocalFanin.start("eb", SampleEvents.lastSent(event).plusSeconds(1));

        SQSBatchResponse response = ingest(fanin, event);

        assertThat(response.getBatchItemFailures()).isEmpty();
        long first = Instant.parse("2026-11-29T09:40:02Z").toEpochMilli();
        long last = Instant.parse("2026-11-29T09:40:11Z").toEpochMilli();
        WindowState session = single(fanin.windows("alert-storm", "111122223333|eu-west-1|payments-api"));
        assertThat(session.ref().windowId()).isEqualTo(WindowRef.sessionId(first));
        assertThat(session.bounds()).as("[first event, last event + gap)").isEqualTo(new Interval(first, last + 30_000));
        assertThat(session.status()).isEqualTo(WindowStatus.OPEN);
        assertThat(session.revisionEvents()).as("4 records, the EventBridge retry has the same id").isEqualTo(3);
        assertThat(session.aggregates().toOutput().path("alerts").asInt()).isEqualTo(3);
        assertThat(session.aggregates().toOutput().path("resources").toString())
                .contains("i-0a1b2c3d4e5f60718", "i-0b2c3d4e5f6071829", "i-0c3d4e5f607182930");
        assertThat(fanin.aggregates(0, Duration.ZERO, SETTLE)).as("an open session emits nothing").isEmpty();
        assertThat(session.timer()).as("a close timer is armed for the session").isNotNull();
        assertThat(fanin.delayedMessages("TimerQueue")).as("the timer waits in the timer queue, delayed").isEqualTo(1);
    }

    @Test
    void snsAlertsOpenOneSessionForAlertStormSns() {
        SQSEvent event = SampleEvents.sqs("sqs-sns-alerts.json");
        LocalFanin fanin = LocalFanin.start("sns", SampleEvents.lastSent(event).plusSeconds(1));

        SQSBatchResponse response = ingest(fanin, event);

        assertThat(response.getBatchItemFailures()).isEmpty();
        long first = Instant.parse("2026-11-29T09:41:00Z").toEpochMilli();
        long last = Instant.parse("2026-11-29T09:41:09Z").toEpochMilli();
        WindowState session = single(fanin.windows("alert-storm-sns", "111122223333|eu-west-1|orders-db"));
        assertThat(session.ref().windowId()).isEqualTo(WindowRef.sessionId(first));
        assertThat(session.bounds()).isEqualTo(new Interval(first, last + 30_000));
        assertThat(session.status()).isEqualTo(WindowStatus.OPEN);
        assertThat(session.aggregates().toOutput().path("alerts").asInt()).isEqualTo(3);
        assertThat(fanin.windows("alert-storm", "111122223333|eu-west-1|orders-db")).as("not the EventBridge pipeline").isEmpty();
        assertThat(fanin.aggregates(0, Duration.ZERO, SETTLE)).isEmpty();
    }

    @Test
    void s3UploadsCloseTheirSessionWhenTheManifestAndEveryFileItCountsHaveArrived() {
        SQSEvent event = SampleEvents.sqs("sqs-s3-uploads.json");
        LocalFanin fanin = LocalFanin.start("s3", SampleEvents.lastSent(event).plusSeconds(1));

        SQSBatchResponse response = ingest(fanin, event);

        assertThat(response.getBatchItemFailures()).isEmpty();
        WindowState session = single(fanin.windows("file-uploads", "acme-ingest|uploads/batch-7"));
        assertThat(session.ref().windowId()).isEqualTo(WindowRef.sessionId(Instant.parse("2026-11-29T03:05:01.118Z").toEpochMilli()));
        assertThat(session.status()).isEqualTo(WindowStatus.CLOSED);
        JsonNode aggregate = single(fanin.aggregates(1, EMIT_WAIT, SETTLE));
        assertThat(aggregate.path("window").path("id").asText()).isEqualTo(session.ref().windowId());
        assertThat(aggregate.path("closeReason").asText()).isEqualTo("EXPECTED_COMPLETE");
        assertThat(aggregate.path("complete").asBoolean()).isTrue();
        assertThat(aggregate.path("expected").asInt()).isEqualTo(3);
        assertThat(aggregate.path("aggregations").path("files").asInt()).as("the manifest does not count as a file").isEqualTo(3);
        assertThat(aggregate.path("aggregations").path("bytes").path("value").asLong()).isEqualTo(48213 + 47990 + 51377);
    }

    private static <T> T single(List<T> items) {
        assertThat(items).hasSize(1);
        return items.get(0);
    }
}
