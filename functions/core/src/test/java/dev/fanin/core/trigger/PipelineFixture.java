package dev.fanin.core.trigger;

import dev.fanin.core.config.AggregationSpec;
import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.Envelope;
import dev.fanin.core.config.EventTimeSpec;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.LatePolicy;
import dev.fanin.core.config.MatchRule;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SentinelSpec;
import dev.fanin.core.config.TriggerSpec;
import dev.fanin.core.config.ValueRef;
import dev.fanin.core.config.WatermarkSpec;
import dev.fanin.core.config.WindowSpec;
import java.time.Duration;
import java.util.List;

/** Builds {@link PipelineConfig}s for engine tests: sensible defaults, change only what a test is about. */
public final class PipelineFixture {

    private WindowSpec window = new WindowSpec.Tumbling(Duration.ofSeconds(60), Duration.ZERO);
    private Integer count;
    private ExpectedSpec expected;
    private SentinelSpec sentinel;
    private Duration maxLifetime = Duration.ofHours(1);
    private WatermarkSpec watermark = new WatermarkSpec(Duration.ofSeconds(5), Duration.ofSeconds(60));
    private Duration allowedLateness = Duration.ofSeconds(30);
    private Duration correctionDelay = Duration.ofSeconds(5);
    private Duration maxPast = Duration.ofDays(1);
    private Duration retention = Duration.ofDays(7);
    private List<AggregationSpec> aggregations = List.of(new AggregationSpec.Count("count"));
    private int maxEventsPerWindow = 10_000;
    private Bounds.Overflow onOverflow = Bounds.Overflow.SPLIT;
    private IncompletePolicy incomplete = new IncompletePolicy(IncompletePolicy.Mode.FIRE_PARTIAL, IncompletePolicy.AtDeadline.FIRE_FLAGGED);

    public static PipelineFixture pipeline() {
        return new PipelineFixture();
    }

    public static FieldPath path(String expression) {
        return FieldPath.parse(expression);
    }

    public PipelineFixture window(WindowSpec window) {
        this.window = window;
        return this;
    }

    public PipelineFixture count(Integer count) {
        this.count = count;
        return this;
    }

    public PipelineFixture expected(ExpectedSpec expected) {
        this.expected = expected;
        return this;
    }

    public PipelineFixture sentinel(SentinelSpec sentinel) {
        this.sentinel = sentinel;
        return this;
    }

    public PipelineFixture maxEventsPerWindow(int maxEventsPerWindow) {
        this.maxEventsPerWindow = maxEventsPerWindow;
        return this;
    }

    public PipelineFixture onOverflow(Bounds.Overflow onOverflow) {
        this.onOverflow = onOverflow;
        return this;
    }

    public PipelineFixture incomplete(IncompletePolicy.Mode mode, IncompletePolicy.AtDeadline atDeadline) {
        this.incomplete = new IncompletePolicy(mode, atDeadline);
        return this;
    }

    public PipelineFixture correctionDelay(Duration correctionDelay) {
        this.correctionDelay = correctionDelay;
        return this;
    }

    public PipelineFixture maxPast(Duration maxPast) {
        this.maxPast = maxPast;
        return this;
    }

    public PipelineFixture allowedLateness(Duration lateness) {
        this.allowedLateness = lateness;
        return this;
    }

    public PipelineFixture retention(Duration retention) {
        this.retention = retention;
        return this;
    }

    public PipelineFixture aggregations(AggregationSpec... aggregations) {
        this.aggregations = List.of(aggregations);
        return this;
    }

    public PipelineConfig build() {
        return new PipelineConfig(
                "test-pipe",
                MatchRule.always(),
                Envelope.RAW,
                List.of(ValueRef.of(path("$.k"))),
                path("$.id"),
                new EventTimeSpec(path("$.t"), EventTimeSpec.TimeFormat.EPOCH_MILLIS, EventTimeSpec.TimeFallback.SQS_SENT_TIMESTAMP,
                        Duration.ofMinutes(5), maxPast),
                window,
                new TriggerSpec(count, expected, sentinel, maxLifetime),
                watermark,
                allowedLateness,
                new LatePolicy(LatePolicy.TooLate.SIDE_OUTPUT, correctionDelay),
                incomplete,
                aggregations,
                new Bounds(maxEventsPerWindow, 1_000, 512, 65_536, onOverflow),
                new EmitTarget.EventBridge("fanin-bus", "fanin", "Aggregate"),
                retention);
    }
}
