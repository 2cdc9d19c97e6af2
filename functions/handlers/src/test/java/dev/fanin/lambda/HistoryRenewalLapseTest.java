package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The pipeline history's record of the configuration in force lapses while its renewals keep failing (moto, the real
 * runtime): the function must stop opening windows, or a pipeline removed then would not be swept at all. The record
 * was checked only when the configuration changed, and the runtime logged the renewal's failure and went on (a
 * review).
 */
class HistoryRenewalLapseTest {

    private static final SQSEvent SHARDS = SampleEvents.sqs("sqs-raw-shards.json");

    @Test
    void aRecordWhoseRenewalsFailStopsCoveringAndIngestWaits() {
        Instant start = SampleEvents.lastSent(SHARDS).plusSeconds(1);
        LocalFanin fanin = LocalFanin.start("renewallapse", start);
        assertThat(fanin.ingest(SampleEvents.records(SHARDS, 0))).isEmpty();
        Instant until = fanin.endpoint.dynamoDb().query(q -> q.tableName(fanin.resources.tableName()).consistentRead(true)
                        .keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("P#pipelines"))))
                .items().stream().map(i -> Instant.ofEpochMilli(Long.parseLong(i.get("until").n()))).max(Instant::compareTo).orElseThrow();

        HistoryWriteOutage.down = true;
        try {
            fanin.clock.advance(Duration.ofDays(3));
            assertThat(fanin.clock.instant()).as("past what the history sweeps").isAfter(until);
            fanin.runtime.refresh();
            assertThatThrownBy(fanin.runtime::requirePipelinesRecorded).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not for long enough");
        } finally {
            HistoryWriteOutage.down = false;
        }
        fanin.runtime.requirePipelinesRecorded();   // renewed at once when the writes come back
    }
}
