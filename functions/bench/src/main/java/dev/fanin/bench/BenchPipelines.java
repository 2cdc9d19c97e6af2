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

    private BenchPipelines() { }

    public static FaninConfig load() {
        return ConfigLoader.load(bundledYaml() + LATE_ROLLUP, "bundled fanin/pipelines.yaml + bench late-rollup");
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
