package dev.fanin.core.intake;

import dev.fanin.core.config.AggregationSpec;
import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.Condition;
import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.Envelope;
import dev.fanin.core.config.EventTimeSpec;
import dev.fanin.core.config.EventTimeSpec.TimeFallback;
import dev.fanin.core.config.EventTimeSpec.TimeFormat;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.LatePolicy;
import dev.fanin.core.config.MatchRule;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.TriggerSpec;
import dev.fanin.core.config.ValueRef;
import dev.fanin.core.config.WatermarkSpec;
import dev.fanin.core.config.WindowSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Builds {@link PipelineConfig}s for intake tests without the configuration loader: only what intake reads is
 * varied (match, envelope, key, event id, event time, bounds); the rest is a fixed, valid tumbling pipeline.
 */
final class PipelineFixture {

    private final String name;
    private final List<Condition> match = new ArrayList<>();
    private Envelope envelope = Envelope.RAW;
    private List<ValueRef> key = List.of(ValueRef.of(FieldPath.parse("$.id")));
    private FieldPath eventId;
    private EventTimeSpec eventTime = new EventTimeSpec(null, TimeFormat.AUTO, TimeFallback.SQS_SENT_TIMESTAMP, null, null);
    private int maxKeyLength = 512;
    private int maxPayloadBytes = 256 * 1024;

    private PipelineFixture(String name) {
        this.name = name;
    }

    static PipelineFixture pipeline(String name) {
        return new PipelineFixture(name);
    }

    static FaninConfig config(PipelineFixture... pipelines) {
        return new FaninConfig(1, Arrays.stream(pipelines).map(PipelineFixture::build).toList());
    }

    PipelineFixture envelope(Envelope value) {
        envelope = value;
        return this;
    }

    PipelineFixture when(Condition condition) {
        match.add(condition);
        return this;
    }

    PipelineFixture key(String... paths) {
        key = Arrays.stream(paths).map(p -> ValueRef.of(FieldPath.parse(p))).toList();
        return this;
    }

    PipelineFixture key(ValueRef... parts) {
        key = List.of(parts);
        return this;
    }

    PipelineFixture eventId(String path) {
        eventId = FieldPath.parse(path);
        return this;
    }

    PipelineFixture eventTime(String path, TimeFormat format, TimeFallback fallback, Duration maxFuture, Duration maxPast) {
        eventTime = new EventTimeSpec(path == null ? null : FieldPath.parse(path), format, fallback, maxFuture, maxPast);
        return this;
    }

    PipelineFixture eventTime(String path, TimeFormat format) {
        return eventTime(path, format, TimeFallback.SQS_SENT_TIMESTAMP, null, null);
    }

    PipelineFixture maxKeyLength(int bytes) {
        maxKeyLength = bytes;
        return this;
    }

    PipelineFixture maxPayloadBytes(int bytes) {
        maxPayloadBytes = bytes;
        return this;
    }

    PipelineConfig build() {
        return new PipelineConfig(name, new MatchRule(match), envelope, key, eventId, eventTime,
                new WindowSpec.Tumbling(Duration.ofMinutes(5), Duration.ZERO),
                new TriggerSpec(null, null, null, Duration.ofHours(1)),
                new WatermarkSpec(Duration.ofSeconds(30), Duration.ofMinutes(2)),
                Duration.ofMinutes(5),
                new LatePolicy(LatePolicy.TooLate.SIDE_OUTPUT, Duration.ofSeconds(30)),
                new IncompletePolicy(IncompletePolicy.Mode.FIRE_PARTIAL, null),
                List.<AggregationSpec>of(new AggregationSpec.Count("count")),
                new Bounds(10_000, 1_000, maxKeyLength, maxPayloadBytes, Bounds.Overflow.SPLIT),
                new EmitTarget.EventBridge("fanin-aggregates", "fanin", "Window Closed"),
                Duration.ofDays(7));
    }

    static Condition equalTo(String path, String value) {
        return new Condition(FieldPath.parse(path), value, null, null, null);
    }

    static Condition oneOf(String path, String... values) {
        return new Condition(FieldPath.parse(path), null, List.of(values), null, null);
    }

    static Condition matches(String path, String regex) {
        return new Condition(FieldPath.parse(path), null, null, Pattern.compile(regex), null);
    }

    static Condition exists(String path, boolean exists) {
        return new Condition(FieldPath.parse(path), null, null, null, exists);
    }

    static ValueRef extract(String path, String regex) {
        return new ValueRef(FieldPath.parse(path), Pattern.compile(regex));
    }
}
