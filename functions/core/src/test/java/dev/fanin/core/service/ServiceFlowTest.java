package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServiceFlowTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final FaninConfig config = ConfigLoader.loadBundled();
    private final TestClock clock = new TestClock(Instant.parse("2026-11-29T10:00:00Z"));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final RecordingSideOutput side = new RecordingSideOutput();
    private final RecordingTimers timers = new RecordingTimers();
    private final FaninEngine engine = new FaninEngine(config,
            new FaninPorts(store, new InMemoryWatermarkStore(), emitter, timers, side, side, Metrics.NONE),
            FaninSettings.defaults(), clock);
    private final IngestService ingest = new IngestService(engine);
    private final SweepService sweep = new SweepService(engine);

    private int seq;

    private InboundMessage raw(String body) {
        seq++;
        return new InboundMessage("m-" + seq, body, clock.instant(), clock.instant());
    }

    private String shard(int shard) {
        return "{\"type\":\"shard.done\",\"jobId\":\"etl\",\"runId\":\"r1\",\"shard\":" + shard
                + ",\"shardCount\":3,\"rows\":10,\"durationMs\":5,\"finishedAt\":\"2026-11-29T09:59:0" + shard + "Z\"}";
    }

    @Test
    void expectedCountCompletesTheWindowAtIngestAndRedeliveryNeverFiresTwice() throws Exception {
        List<InboundMessage> batch = new ArrayList<>(List.of(raw(shard(0)), raw(shard(1)), raw(shard(1))));
        BatchResult first = ingest.handle(batch);
        assertThat(first.failedMessageIds()).isEmpty();
        assertThat(first.duplicates()).isEqualTo(1);
        assertThat(emitter.emitted()).isEmpty();

        BatchResult second = ingest.handle(List.of(raw(shard(2))));
        assertThat(second.failedMessageIds()).isEmpty();
        assertThat(emitter.emitted()).hasSize(1);
        JsonNode aggregate = JSON.readTree(emitter.emitted().get(0).detailJson());
        assertThat(aggregate.path("closeReason").asText()).isEqualTo("EXPECTED_COMPLETE");
        assertThat(aggregate.path("complete").asBoolean()).isTrue();
        assertThat(aggregate.path("seen").asInt()).isEqualTo(3);

        // The whole batch again (redelivery): nothing new is emitted.
        ingest.handle(batch);
        ingest.handle(List.of(raw(shard(2))));
        clock.advance(Duration.ofHours(3));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(emitter.emitted()).hasSize(1);
    }

    @Test
    void deadlineFiresPartialNamingTheMissingShard() throws Exception {
        ingest.handle(List.of(raw(shard(0)), raw(shard(2))));
        clock.advance(Duration.ofMinutes(29));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(emitter.emitted()).isEmpty();
        clock.advance(Duration.ofMinutes(1));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(emitter.emitted()).hasSize(1);
        JsonNode aggregate = JSON.readTree(emitter.emitted().get(0).detailJson());
        assertThat(aggregate.path("closeReason").asText()).isEqualTo("HARD_LIFETIME");
        assertThat(aggregate.path("complete").asBoolean()).isFalse();
        assertThat(aggregate.path("missing").toString()).isEqualTo("[1]");
        assertThat(store.openWindows("shard-completions")).isZero();
    }

    @Test
    void malformedMessageIsDeadLetteredWithItsReasonAndTheBatchGoesOn() {
        BatchResult r = ingest.handle(List.of(raw("{not json"), raw(shard(0))));
        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(r.deadLettered()).isEqualTo(1);
        assertThat(side.deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("MALFORMED_JSON");
            assertThat(d.reason()).startsWith("MALFORMED_JSON: ");
        });
        assertThat(r.eventsAccepted()).isEqualTo(1);
    }
}
