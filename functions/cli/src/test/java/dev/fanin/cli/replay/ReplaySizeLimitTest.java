package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, item 2 for time windows: a continuous stream into tumbling windows cut by {@code maxEventsPerWindow} loses no
 * on-time event. Each cut commits a SIZE_LIMIT revision and the window continues as the next revision, empty, so the
 * revisions of a window count every one of its events, also with redelivery. (The continuation of a session cut by its
 * lifetime or size is the sessions change's.)
 *
 * <p>Also under crashes (seed 13, 30 %): the next revision starts counting when the split is claimed, so an event
 * never waits in SQS for a crashed split's lease (before, 9 such events went to the side output and 2 were
 * dead-lettered, having outlived the window's hard deadline or their last delivery).
 */
class ReplaySizeLimitTest {

    private static final Instant T0 = Instant.parse("2026-11-29T09:40:00Z");
    private static final int EVENTS = 45;

    @TempDir
    Path dir;

    @Test
    void aStreamCutByTheSizeBoundLosesNoEventWithRedeliveryOrCrashes() throws IOException {
        Path config = dir.resolve("pipelines.yaml");
        Files.writeString(config, """
                version: 1
                pipelines:
                  - name: metrics
                    envelope: raw
                    key: [$.host]
                    eventId: $.id
                    eventTime: {path: $.t}
                    window: {type: tumbling, size: 1m}
                    triggers: {maxLifetime: 10m}
                    watermark: {outOfOrderness: 5s, idleAfter: 30s}
                    bounds: {maxEventsPerWindow: 7}
                    aggregations:
                      - {name: n, type: count}
                      - {name: ids, type: distinct-values, path: $.id, cap: 100}
                    emit:
                      eventbridge: {bus: "${FANIN_EMIT_BUS_NAME}", source: fanin, detailType: fanin.aggregate}
                """);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            Instant t = T0.plusSeconds(4L * i);
            lines.add("{\"at\":\"" + t.plusMillis(200) + "\",\"body\":{\"host\":\"h1\",\"id\":\"e" + i + "\",\"t\":\"" + t + "\"}}");
        }
        Path trace = dir.resolve("stream.jsonl");
        Files.write(trace, lines);

        for (String mode : List.of("clean", "redeliver", "crash")) {
            double redeliver = mode.equals("redeliver") ? 0.5 : 0;
            double crashRate = mode.equals("crash") ? 0.3 : 0;
            ReplayRun run = ReplayRun.run(config, trace, dir.resolve(mode), redeliver, crashRate, mode.equals("crash") ? 13 : 7, List.of(),
                    Duration.ZERO);
            assertThat(run.aggregatesById().values().stream().filter(a -> a.path("closeReason").asText().equals("SIZE_LIMIT")).count())
                    .as("%s: SIZE_LIMIT cuts", mode).isGreaterThanOrEqualTo(4);
            assertThat(counted(run)).as("%s: every event counted", mode).hasSize(EVENTS);
            assertThat(run.lateRecords()).as("%s: late records", mode).isEmpty();
            assertThat(run.deadLetterRecords()).as("%s: dead letters", mode).isEmpty();
            if (mode.equals("crash")) {
                assertThat(run.counter("crashesInjected")).as("crashes injected").isPositive();
            }
        }
    }

    /** The event ids counted by some revision (revisions after a cut start empty; corrections are cumulative). */
    private static Set<String> counted(ReplayRun run) {
        Set<String> ids = new TreeSet<>();
        for (JsonNode a : run.aggregatesById().values()) {
            a.path("aggregations").path("ids").path("values").forEach(v -> ids.add(v.asText()));
        }
        return ids;
    }
}
