package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.MotoServer;
import dev.fanin.core.port.PipelineHistory.Definition;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

class DynamoDbPipelineHistoryTest {

    private static final Instant T = Instant.parse("2026-12-01T00:00:00Z");
    private DynamoDbClient dynamo;
    private DynamoDbPipelineHistory history;

    @BeforeEach
    void table() {
        dynamo = MotoServer.get().dynamoDb();
        String table = "history-" + UUID.randomUUID();
        dynamo.createTable(WindowTableSchema.createTableRequest(table));
        history = new DynamoDbPipelineHistory(dynamo, table);
    }

    @Test
    void aRecordOnlyMovesTheSweepLaterAndAlwaysTakesTheNewDocument() {
        history.record(List.of(new Definition("uploads", "doc-1", T.plusSeconds(7200)), new Definition("alerts", "doc-1", T.plusSeconds(600))));
        history.record(List.of(new Definition("uploads", "doc-2", T.plusSeconds(3600)), new Definition("alerts", "doc-2", T.plusSeconds(900))));

        assertThat(history.recorded()).containsExactlyInAnyOrder(
                new Definition("uploads", "doc-2", T.plusSeconds(7200)),
                new Definition("alerts", "doc-2", T.plusSeconds(900)));
    }

    @Test
    void theConditionKeepsALaterSweepAndTheItemExpiresADayAfterIt() {
        var put = history.putRequest(new Definition("uploads", "doc", T));
        assertThat(put.conditionExpression()).isEqualTo("attribute_not_exists(#until) OR #until <= :until");
        assertThat(put.item().get("pk").s()).isEqualTo("P#pipelines");
        assertThat(put.item().get("sk").s()).isEqualTo("uploads");
        assertThat(Long.parseLong(put.item().get("ttl").n())).isEqualTo(T.plusSeconds(86_400).getEpochSecond());
    }
}
