package dev.fanin.bench;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The benchmark's configuration: the bundled sample pipelines exactly as shipped (read from the core's resource, so
 * they cannot drift), plus {@code late-rollup}, a one-minute tumbling rollup with five minutes of allowed lateness
 * for the late-heavy profile (no sample pipeline has a time window with lateness).
 */
public final class BenchPipelines {

    static final String LATE_ROLLUP = """

              - name: late-rollup
                match:
                  - path: $.type
                    equals: reading
                key: [$.sensor]
                eventId: $.id
                eventTime:
                  path: $.at
                window:
                  type: tumbling
                  size: 1m
                triggers:
                  maxLifetime: 15m
                watermark:
                  outOfOrderness: 5s
                  idleAfter: 30s
                allowedLateness: 5m
                late:
                  tooLate: side-output
                  correctionDelay: 10s
                aggregations:
                  - {name: readings, type: count}
                  - {name: total, type: sum, path: $.value}
            """;

    /**
     * The grow and hot-key-15m profiles' pipelines (bench only, each run alone): one sensor's readings into a 5-minute
     * tumbling window ({@code grow-rollup}), a session of 60 s gap ({@code grow-session}) or 10-second tumbling windows
     * ({@code hot-rollup}). {@code maxEventsPerWindow} is 100,000, so a window grows to 50,000 events in one revision
     * (the bundled pipelines' bound is 10,000).
     */
    static final String GROW = "version: 1\npipelines:\n"
            + onePipeline("grow-rollup", "grow.tumbling", "{type: tumbling, size: 5m}", "15m", "5s")
            + onePipeline("grow-session", "grow.session", "{type: session, gap: 60s}", "30m", "5s")
            + onePipeline("hot-rollup", "hot.reading", "{type: tumbling, size: 10s}", "2m", "2s");

    /** One sensor's readings (key {@code $.sensor}, id {@code $.id}, time {@code $.at}), counted and summed. */
    private static String onePipeline(String name, String type, String window, String maxLifetime, String outOfOrderness) {
        return """
                  - name: %s
                    match: [{path: $.type, equals: %s}]
                    key: [$.sensor]
                    eventId: $.id
                    eventTime: {path: $.at}
                    window: %s
                    triggers: {maxLifetime: %s}
                    watermark: {outOfOrderness: %s, idleAfter: 30s}
                    bounds: {maxEventsPerWindow: 100000}
                    aggregations:
                      - {name: readings, type: count}
                      - {name: total, type: sum, path: $.value}
                """.formatted(name, type, window, maxLifetime, outOfOrderness);
    }

    private BenchPipelines() { }

    /** One of the {@link #GROW} pipelines alone, so that the sweeper's fixed reads are those of one pipeline. */
    static FaninConfig grow(String pipeline) {
        FaninConfig all = ConfigLoader.load(GROW, "bench grow pipelines");
        return new FaninConfig(all.version(), java.util.List.of(all.pipeline(pipeline).orElseThrow()));
    }

    public static FaninConfig load() {
        return ConfigLoader.load(loadedYaml(), "bundled fanin/pipelines.yaml + bench late-rollup");
    }

    private static String loadedYaml() {
        return bundledYaml() + LATE_ROLLUP;
    }

    /**
     * The configuration document a deployment of {@code config}'s pipelines reads (the pipeline history stores it
     * whole, once per pipeline): the text {@link #load} reads when it has all of them, else each pipeline's lines of
     * the bench's sources (the bundled file, {@link #LATE_ROLLUP}, {@link #GROW}) under {@code version} and
     * {@code pipelines}.
     */
    static String document(FaninConfig config) {
        String sources = loadedYaml() + "\n" + GROW;
        if (names(config).equals(names(load()))) {
            return loadedYaml();
        }
        StringBuilder doc = new StringBuilder("version: 1\npipelines:\n");
        config.pipelines().forEach(p -> doc.append(section(sources, p.name())));
        return doc.toString();
    }

    private static java.util.List<String> names(FaninConfig config) {
        return config.pipelines().stream().map(dev.fanin.core.config.PipelineConfig::name).toList();
    }

    /** A pipeline's lines: from its {@code - name:} line to a blank line or the next pipeline's. */
    private static String section(String yaml, String pipeline) {
        String start = "  - name: " + pipeline + "\n";
        int from = yaml.indexOf(start);
        if (from < 0) {
            throw new IllegalArgumentException("no pipeline " + pipeline + " in the bench's sources");
        }
        int blank = yaml.indexOf("\n\n", from);
        int next = yaml.indexOf("\n  - name: ", from + 1);
        int end = Math.min(blank < 0 ? yaml.length() : blank, next < 0 ? yaml.length() : next);
        return yaml.substring(from, end) + "\n";
    }

    static String bundledYaml() {
        try (InputStream in = ConfigLoader.class.getClassLoader().getResourceAsStream(ConfigLoader.BUNDLED_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("classpath resource " + ConfigLoader.BUNDLED_RESOURCE + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).stripTrailing() + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
