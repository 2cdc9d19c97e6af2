package dev.fanin.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Close latency in simulated processing time: for each window's first emission, the delay from the instant its
 * close condition became true to the instant it was emitted. The condition instant comes from an oracle over the
 * input stream (the docs/SEMANTICS.md rules applied to what had arrived, not from fanin's own state):
 * <ul>
 *   <li>WATERMARK and SESSION_GAP: the first instant at which the ideal pipeline watermark
 *       {@code maxEventTime - outOfOrderness + max(0, now - lastArrival - idleAfter)}, over the events arrived on
 *       the queue by then, reaches the window end;</li>
 *   <li>HARD_LIFETIME: {@code openedAt + triggers.maxLifetime};</li>
 *   <li>EXPECTED_COMPLETE, SENTINEL, COUNT, SIZE_LIMIT: the arrival of the key's latest event inside the window
 *       that had arrived before the emission.</li>
 * </ul>
 * Corrections (revisions after the first) are not counted.
 */
final class CloseLatency {

    enum Reason { EXPECTED_COMPLETE, SENTINEL, COUNT, WATERMARK, SESSION_GAP, HARD_LIFETIME, SIZE_LIMIT, LATE_CORRECTION }

    record Summary(int windows, long min, long p50, long p90, long p99, long max, Map<Reason, Integer> byReason, int negative) {

        String percentiles() {
            return windows == 0 ? "n/a" : String.format("%s / %s / %s / %s", seconds(p50), seconds(p90), seconds(p99), seconds(max));
        }

        private static String seconds(long millis) {
            return String.format("%.1f s", millis / 1000.0);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Per pipeline, in arrival order: arrival ms and the newest event time arrived so far. */
    private final Map<String, long[][]> progress = new HashMap<>();
    /** Per pipeline and key, in arrival order: arrival ms and event time ms. */
    private final Map<String, List<long[]>> byKey = new HashMap<>();
    private final FaninConfig config;

    /** @param events the workload's events as intake parses them, in arrival order, with their queue arrival */
    CloseLatency(FaninConfig config, List<Event> events) {
        this.config = config;
        Map<String, List<long[]>> perPipeline = new HashMap<>();
        for (Event e : events) {
            long arrival = e.arrivedAt().toEpochMilli();
            List<long[]> list = perPipeline.computeIfAbsent(e.pipeline(), p -> new ArrayList<>());
            long newest = list.isEmpty() ? Long.MIN_VALUE : list.get(list.size() - 1)[1];
            list.add(new long[] {arrival, Math.max(newest, e.eventTime().toEpochMilli())});
            byKey.computeIfAbsent(e.pipeline() + "\u0000" + e.key(), k -> new ArrayList<>())
                    .add(new long[] {arrival, e.eventTime().toEpochMilli()});
        }
        perPipeline.forEach((p, list) -> progress.put(p, list.toArray(new long[0][])));
    }

    Summary summarize(List<TimedEmitter.Emitted> emitted) {
        List<Long> delays = new ArrayList<>();
        Map<Reason, Integer> byReason = new EnumMap<>(Reason.class);
        int negative = 0;
        for (TimedEmitter.Emitted e : emitted) {
            JsonNode json = parse(e.request().detailJson());
            if (!json.path("corrects").isNull() && !json.path("corrects").isMissingNode()) {
                continue;
            }
            Reason reason = Reason.valueOf(json.path("closeReason").asText());
            long condition = conditionMillis(json, reason, e.at().toEpochMilli());
            long delay = e.at().toEpochMilli() - condition;
            if (delay < 0) {
                negative++;
            }
            delays.add(delay);
            byReason.merge(reason, 1, Integer::sum);
        }
        long[] sorted = delays.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Summary(sorted.length, sorted.length == 0 ? 0 : sorted[0], percentile(sorted, 50), percentile(sorted, 90), percentile(sorted, 99),
                sorted.length == 0 ? 0 : sorted[sorted.length - 1], byReason, negative);
    }

    long conditionMillis(JsonNode json, Reason reason, long emittedAt) {
        String pipeline = json.path("pipeline").asText();
        PipelineConfig p = config.pipeline(pipeline).orElseThrow();
        long start = Instant.parse(json.path("window").path("start").asText()).toEpochMilli();
        long end = Instant.parse(json.path("window").path("end").asText()).toEpochMilli();
        long openedAt = Instant.parse(json.path("openedAt").asText()).toEpochMilli();
        return switch (reason) {
            case WATERMARK, SESSION_GAP -> watermarkReaches(p, end, openedAt);
            case HARD_LIFETIME -> openedAt + p.triggers().maxLifetime().toMillis();
            case EXPECTED_COMPLETE, SENTINEL, COUNT, SIZE_LIMIT, LATE_CORRECTION ->
                    lastArrivalInside(pipeline + "\u0000" + json.path("key").asText(), start, end, emittedAt);
        };
    }

    /** The first processing time at or after the window opened at which the ideal watermark reaches {@code end}. */
    long watermarkReaches(PipelineConfig p, long end, long openedAt) {
        long[][] arrivals = progress.get(p.name());
        long ooo = p.watermark().outOfOrderness().toMillis();
        long idle = p.watermark().idleAfter().toMillis();
        int i = Math.max(0, firstArrivalAtOrAfter(arrivals, openedAt - 1_000) - 1);
        for (; i < arrivals.length; i++) {
            long bounded = arrivals[i][1] - ooo;
            if (bounded >= end) {
                return arrivals[i][0];
            }
            long idleReach = arrivals[i][0] + idle + (end - bounded);
            if (i == arrivals.length - 1 || idleReach < arrivals[i + 1][0]) {
                return idleReach;
            }
        }
        throw new IllegalStateException("no arrivals for pipeline " + p.name());
    }

    private long lastArrivalInside(String pipelineKey, long start, long end, long emittedAt) {
        long last = Long.MIN_VALUE;
        for (long[] e : byKey.getOrDefault(pipelineKey, List.of())) {
            if (e[0] <= emittedAt && e[1] >= start && e[1] < end) {
                last = Math.max(last, e[0]);
            }
        }
        return last == Long.MIN_VALUE ? emittedAt : last;
    }

    private static int firstArrivalAtOrAfter(long[][] arrivals, long millis) {
        int low = 0;
        int high = arrivals.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (arrivals[mid][0] < millis) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Nearest-rank percentile. */
    static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String describe(Map<Reason, Integer> byReason) {
        return Arrays.toString(byReason.entrySet().toArray());
    }
}
