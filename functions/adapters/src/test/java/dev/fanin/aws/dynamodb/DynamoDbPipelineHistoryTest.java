package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.FreshTable;
import dev.fanin.core.port.PipelineHistory.Definition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DynamoDbPipelineHistoryTest {

    @RegisterExtension
    static final FreshTable TABLE = new FreshTable("history");
    private static final Instant T = Instant.parse("2026-12-01T00:00:00Z");
    private DynamoDbPipelineHistory history;

    @BeforeEach
    void history() {
        history = new DynamoDbPipelineHistory(TABLE.client(), TABLE.name());
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
    void whenAFunctionLastRanAPipelineIsKeptApartFromItsDocument() {
        history.record(List.of(new Definition("ran-once", "a document of some kilobytes", T.plusSeconds(7200))));
        history.ran(List.of("ran-once"), T.plusSeconds(60));
        history.ran(List.of("ran-once", "not-recorded-yet"), T.plusSeconds(120));

        assertThat(history.recorded()).filteredOn(d -> d.pipeline().startsWith("ran-") || d.pipeline().startsWith("not-"))
                .containsExactly(new Definition("ran-once", "a document of some kilobytes", T.plusSeconds(7200), T.plusSeconds(120)));
        var ranItem = TABLE.client().getItem(r -> r.tableName(TABLE.name()).consistentRead(true).key(java.util.Map.of(
                "pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("P#ran"),
                "sk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("ran-once")))).item();
        assertThat(ranItem).as("a small item: the document is not rewritten").doesNotContainKey("doc").containsKey("ran");
        // The definitions' partition holds definitions only: a reader of an earlier version expects a document in each.
        assertThat(TABLE.client().query(r -> r.tableName(TABLE.name()).keyConditionExpression("pk = :pk").consistentRead(true)
                .expressionAttributeValues(java.util.Map.of(":pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(
                        "P#pipelines")))).items()).allMatch(i -> i.containsKey("doc"));
    }

    /** The version before P#ran wrote its ran items beside the definitions; they live a day and must not stop a read. */
    @Test
    void aRanItemOfTheVersionBeforeAmongTheDefinitionsIsReadAsARan() {
        history.record(List.of(new Definition("older-ran", "doc", T.plusSeconds(7200))));
        TABLE.client().putItem(r -> r.tableName(TABLE.name()).item(java.util.Map.of(
                "pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("P#pipelines"),
                "sk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("older-ran#ran"),
                "ran", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(Long.toString(T.plusSeconds(30).toEpochMilli())))));

        assertThat(history.recorded()).filteredOn(d -> d.pipeline().startsWith("older-"))
                .containsExactly(new Definition("older-ran", "doc", T.plusSeconds(7200), T.plusSeconds(30)));
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
