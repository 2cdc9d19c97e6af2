package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A pipeline whose windows may stay open 30 days keeps its watermark shards at least that long after its latest
 * arrival. They were kept 7 days whatever the pipeline: a monthly window of a pipeline idle for its last week lost
 * its watermark (no shard, no watermark), so instead of closing by the idle advance, complete, it closed at its hard
 * deadline flagged incomplete (found by a review).
 */
class WatermarkKeptTest {

    private static final SQSEvent SHARDS = SampleEvents.sqs("sqs-raw-shards.json");

    @Test
    void aPipelinesShardsAreKeptAsLongAsItsWindowsMayWaitForTheWatermark() {
        PublishedConfig config = PublishedConfig.bucket("watermarkkept");
        config.publish("p.yaml", PublishedConfig.BUNDLED.replace("maxLifetime: 30m", "maxLifetime: 30d"));
        Instant start = SampleEvents.lastSent(SHARDS).plusSeconds(1);
        LocalFanin fanin = LocalFanin.start("watermarkkept", start, Map.of(EnvironmentVariables.CONFIG, config.location("p.yaml")));

        assertThat(fanin.ingest(SampleEvents.records(SHARDS, 0))).isEmpty();

        var shards = fanin.endpoint.dynamoDb().query(q -> q.tableName(fanin.resources.tableName()).consistentRead(true)
                .keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("M#shard-completions"))))
                .items();
        assertThat(shards).isNotEmpty().allSatisfy(item -> {
            Instant lastArrival = Instant.ofEpochMilli(Long.parseLong(item.get("lastArr").n()));
            Instant expires = Instant.ofEpochSecond(Long.parseLong(item.get("ttl").n()));
            assertThat(Duration.between(lastArrival, expires)).isGreaterThanOrEqualTo(Duration.ofDays(31));
        });
    }

    /**
     * A window opened under a definition with a longer horizon still waits for the watermark after maxLifetime is
     * lowered: the next arrival rewrote the shards' expiry from the definition in force, 7 days on, four weeks before
     * a 60-day window's end (a review).
     */
    @Test
    void shardsOutliveTheWindowsOpenedBeforeAShorterMaxLifetime() {
        PublishedConfig config = PublishedConfig.bucket("wmchange");
        String monthly = PublishedConfig.BUNDLED.replace("      size: 1d\n", "      size: 60d\n").replace("maxLifetime: 30m", "maxLifetime: 61d");
        assertThat(monthly).isNotEqualTo(PublishedConfig.BUNDLED);
        config.publish("p.yaml", monthly);
        Instant start = SampleEvents.lastSent(SHARDS).plusSeconds(1);
        LocalFanin fanin = LocalFanin.start("wmchange", start, Map.of(EnvironmentVariables.CONFIG, config.location("p.yaml")));
        assertThat(fanin.ingest(SampleEvents.records(SHARDS, 0))).isEmpty();
        Instant monthEnd = Instant.ofEpochMilli(fanin.windows("shard-completions", "nightly-etl|2026-11-29").get(0).bounds().endMillis());

        config.publish("p.yaml", PublishedConfig.BUNDLED);     // daily windows, maxLifetime 30m
        fanin.clock.advance(Duration.ofMinutes(1));
        assertThat(fanin.ingest(SampleEvents.records(SHARDS, 1))).isEmpty();
        assertThat(fanin.windows("shard-completions", "nightly-etl|2026-11-29")).as("the month window, and a daily one").hasSize(2);

        assertThat(shards(fanin)).isNotEmpty().allSatisfy(item -> assertThat(Instant.ofEpochSecond(Long.parseLong(item.get("ttl").n())))
                .as("kept past the month window's end, which only the watermark closes complete").isAfter(monthEnd));
    }

    private static List<Map<String, AttributeValue>> shards(LocalFanin fanin) {
        return fanin.endpoint.dynamoDb().query(q -> q.tableName(fanin.resources.tableName()).consistentRead(true)
                .keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("M#shard-completions"))))
                .items();
    }
}
