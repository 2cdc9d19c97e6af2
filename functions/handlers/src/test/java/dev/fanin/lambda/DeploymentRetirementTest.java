package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.PipelineHistory;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.SweepService;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * During a deployment two configurations run side by side: C2 adds pipeline b to C1. A function still on C1 finds b
 * recorded and not configured, so it sweeps b's windows under b's recorded definition; before, it also stamped their
 * aggregates {@code retired: removed}, a permanent revision telling consumers that a live pipeline was cut off. Now b
 * counts as run elsewhere while a function running it recorded it within three refreshes, and only a pipeline no
 * function runs any more is stamped.
 */
class DeploymentRetirementTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private static String pipeline(String name, String match) {
        return "  - name: " + name + "\n    envelope: raw\n" + match + "    key: [$.k]\n    eventId: $.id\n"
                + "    eventTime: {path: $.t}\n    window: {type: tumbling, size: 1m}\n    triggers: {maxLifetime: 10m}\n"
                + "    watermark: {outOfOrderness: 0s, idleAfter: 5m}\n    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
    }

    static class MemHistory implements PipelineHistory {
        final Map<String, Definition> items = new LinkedHashMap<>();
        final Map<String, Instant> ran = new LinkedHashMap<>();

        @Override
        public synchronized void record(List<Definition> definitions) {
            for (Definition d : definitions) {
                Definition old = items.get(d.pipeline());
                Instant until = old != null && old.sweepUntil().isAfter(d.sweepUntil()) ? old.sweepUntil() : d.sweepUntil();
                items.put(d.pipeline(), new Definition(d.pipeline(), d.document(), until));
            }
        }

        @Override
        public synchronized void ran(List<String> pipelines, Instant at) {
            pipelines.forEach(p -> ran.put(p, at));
        }

        @Override
        public synchronized List<Definition> recorded() {
            return items.values().stream().map(d -> new Definition(d.pipeline(), d.document(), d.sweepUntil(),
                    ran.getOrDefault(d.pipeline(), Instant.EPOCH))).toList();
        }
    }

    @Test
    void aFunctionStillOnTheConfigurationBeforeAPipelineWasAddedDoesNotStampItRetired() throws Exception {
        assertThat(sweptByTheOldFunction(Duration.ofSeconds(30)).has("retired")).as("b is in the configuration being deployed").isFalse();
    }

    @Test
    void aPipelineNoFunctionRunsAnyMoreIsStampedRetired() throws Exception {
        // b's functions stopped: its record was last renewed 4 refreshes before the sweep (C2 rolled back, say).
        assertThat(sweptByTheOldFunction(Duration.ofMinutes(4)).path("retired").path("change").asText()).isEqualTo("removed");
    }

    /** A C2 function opens a window of b; {@code later}, a C1 function sweeps it to its close: the aggregate. */
    private com.fasterxml.jackson.databind.JsonNode sweptByTheOldFunction(Duration later) throws Exception {
        String c1 = "version: 1\npipelines:\n" + pipeline("a", "    match: [{path: $.kind, oneOf: [a]}]\n");
        String c2 = c1 + pipeline("b", "    match: [{path: $.kind, oneOf: [b]}]\n");
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingSideOutput side = new RecordingSideOutput();
        FaninPorts ports = new FaninPorts(new InMemoryWindowStore(4), new InMemoryWatermarkStore(), emitter, new RecordingTimers(), side, side,
                Metrics.NONE);
        MemHistory history = new MemHistory();
        Duration refresh = Duration.ofMinutes(1);
        PipelineRetirement oldFunction = new PipelineRetirement(history, FaninSettings.defaults().lease(), refresh);
        PipelineRetirement newFunction = new PipelineRetirement(history, FaninSettings.defaults().lease(), refresh);
        FaninConfig cfg1 = ConfigLoader.load(c1, "c1");
        FaninConfig cfg2 = ConfigLoader.load(c2, "c2");
        oldFunction.update(cfg1, c1, T0);
        PipelineRetirement.Retired none = newFunction.update(cfg2, c2, T0);
        FaninEngine newEngine = new FaninEngine(cfg2, none.pipelines(), ports, FaninSettings.defaults(), clock);
        new IngestService(newEngine).handle(List.of(new InboundMessage("m1",
                "{\"kind\":\"b\",\"k\":\"x\",\"id\":\"e1\",\"t\":" + T0.toEpochMilli() + "}", 1, T0, T0, Map.of())));

        clock.advance(later);
        PipelineRetirement.Retired seen = oldFunction.update(cfg1, c1, clock.instant());
        assertThat(seen.pipelines()).extracting(PipelineConfig::name).containsExactly("b");
        FaninEngine oldEngine = new FaninEngine(cfg1, seen.pipelines(), seen.runElsewhere(), ports, FaninSettings.defaults(), clock);
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofMinutes(1));
            new SweepService(oldEngine).sweep(clock.instant().plusSeconds(50));
        }
        assertThat(emitter.emitted()).hasSize(1);
        return new ObjectMapper().readTree(emitter.emitted().get(0).detailJson());
    }

    /**
     * A pipeline removed before an upgrade that made the loader stricter (maxLifetime beyond the window plus its
     * out-of-orderness; YAML plain scalars as written) still closes its windows under its recorded definition, read as
     * the fanin that accepted it read it: refused by today's rules, it was never swept again.
     */
    @Test
    void aPipelineRecordedUnderOlderRulesStillClosesUnderItsDefinition() {
        String before = "version: 1\npipelines:\n" + upgradePipeline("a", "    triggers: {maxLifetime: 2h}\n")
                + upgradePipeline("b", "    triggers: {maxLifetime: 61m, sentinel: {when: {path: $.done, exists: yes}}}\n"
                        + "    watermark: {outOfOrderness: 5m}\n");
        String now = "version: 1\npipelines:\n" + upgradePipeline("a", "    triggers: {maxLifetime: 2h}\n");
        MemHistory history = new MemHistory();
        history.record(List.of(new PipelineHistory.Definition("b", before, T0.plus(Duration.ofHours(3)))));
        PipelineRetirement retirement = new PipelineRetirement(history, FaninSettings.defaults().lease(), Duration.ofMinutes(1));

        PipelineRetirement.Retired retired = retirement.update(ConfigLoader.load(now, "now"), now, T0);

        assertThat(retired.pipelines()).extracting(PipelineConfig::name).containsExactly("b");
        assertThat(retired.pipelines().get(0).triggers().sentinel().when().exists()).as("yes read as YAML 1.1 read it").isTrue();
    }

    private static String upgradePipeline(String name, String extra) {
        return "  - name: " + name + "\n    envelope: raw\n    match: [{path: $.kind, oneOf: [" + name + "]}]\n    key: [$.k]\n"
                + "    eventId: $.id\n    eventTime: {path: $.t}\n    window: {type: tumbling, size: 1h}\n" + extra
                + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
    }
}
