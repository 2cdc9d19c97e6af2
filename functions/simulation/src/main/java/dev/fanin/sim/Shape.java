package dev.fanin.sim;

import java.util.List;

/**
 * The three sample pipeline shapes of the brief, as the simulation drives them (see {@link SimPipelines} for their
 * configuration and {@link Workload} for their traffic), and a one-minute tumbling rollup the samples lack, run when
 * named: its very late sends leave windows whose every event was too late, kept only for their verdicts.
 */
public enum Shape {
    /** alert-storm: EventBridge envelope, session window (30 s gap, 10 min lifetime), fire partial, 2 min lateness. */
    SESSION("alert-storm"),
    /** shard-completions: raw JSON, tumbling day window closed by the expected shard count, 30 min deadline. */
    TUMBLING_EXPECTED("shard-completions"),
    /** file-uploads: S3 notifications, session window closed by a manifest sentinel carrying the count, HOLD policy. */
    SESSION_SENTINEL_HOLD("file-uploads"),
    /** sensor-rollup: raw JSON, one-minute tumbling windows closed by the watermark, 1 min lateness. */
    TUMBLING("sensor-rollup");

    /** The sample pipelines' shapes: what a simulation runs unless told otherwise. */
    public static final List<Shape> SAMPLES = List.of(SESSION, TUMBLING_EXPECTED, SESSION_SENTINEL_HOLD);

    private final String pipeline;

    Shape(String pipeline) {
        this.pipeline = pipeline;
    }

    public String pipeline() {
        return pipeline;
    }
}
