package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.text.ExactJson;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ids are compared as what they mean: a shard sent as {@code 0} and again as {@code 0.0} is one event of member 0, so
 * the aggregate never says "expected 2, seen 3" with three shards counted.
 */
class NumericIdsTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final RecordingSideOutput side = new RecordingSideOutput();
    private final IngestService ingest = new IngestService(new FaninEngine(ConfigLoader.loadBundled(),
            new FaninPorts(new InMemoryWindowStore(4), new InMemoryWatermarkStore(), emitter, new RecordingTimers(), side, side,
                    Metrics.NONE), FaninSettings.defaults(), new TestClock(NOW)));

    private static InboundMessage shard(String id, String shard) {
        String body = "{\"type\":\"shard.done\",\"jobId\":\"etl\",\"runId\":\"r1\",\"shard\":" + shard
                + ",\"shardCount\":2,\"rows\":1,\"durationMs\":1,\"finishedAt\":\"2026-11-29T09:59:00Z\"}";
        return new InboundMessage(id, body, NOW, NOW);
    }

    @Test
    void theSameShardAsAnIntegerAndAsADecimalIsOneEvent() throws Exception {
        BatchResult r = ingest.handle(List.of(shard("m1", "0"), shard("m2", "0.0"), shard("m3", "1")));

        assertThat(r.eventsAccepted()).isEqualTo(2);
        assertThat(r.duplicates()).isEqualTo(1);
        JsonNode aggregate = ExactJson.read(emitter.emitted().get(0).detailJson());
        assertThat(aggregate.path("complete").asBoolean()).isTrue();
        assertThat(aggregate.path("expected").asInt()).isEqualTo(2);
        assertThat(aggregate.path("seen").asInt()).isEqualTo(2);
        assertThat(aggregate.path("aggregations").path("shards").asInt()).isEqualTo(2);
    }
}
