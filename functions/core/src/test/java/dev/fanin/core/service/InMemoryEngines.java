package dev.fanin.core.service;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.testkit.TestClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;

/** Engines on in-memory ports for the service tests, and the raw JSON events and SQS messages they are fed. */
final class InMemoryEngines {

    private InMemoryEngines() {
    }

    /**
     * An engine for the configuration {@code yaml}: the given store (an in-memory one, or a wrapper over it that counts
     * or interferes), emitter (a recording one, or a wrapper over it) and timers, a recording side output (for dead
     * letters too: {@code (RecordingSideOutput) engine.ports().sideOutput()}).
     */
    static FaninEngine of(String yaml, WindowStore store, AggregateEmitter emitter, WindowTimers timers, Clock clock) {
        RecordingSideOutput side = new RecordingSideOutput();
        return new FaninEngine(ConfigLoader.load(yaml, "test"),
                new FaninPorts(store, new InMemoryWatermarkStore(), emitter, timers, side, side, Metrics.NONE),
                FaninSettings.defaults(), clock);
    }

    /**
     * Another container of the same deployment as {@code running}: the same configuration, ports (store, watermarks,
     * emitter, side output) and settings, on its own clock (containers' clocks are skewed).
     */
    static FaninEngine elsewhere(FaninEngine running, Clock clock) {
        return new FaninEngine(running.config(), running.ports(), running.settings(), clock);
    }

    /** The same ports, settings and clock as {@code running}, under the configuration {@code yaml}: a change of it. */
    static FaninEngine reconfigured(FaninEngine running, String yaml) {
        return new FaninEngine(ConfigLoader.load(yaml, "test"), running.ports(), running.settings(), running.clock());
    }

    /**
     * An in-memory store whose window creations take invocation time: before each, {@code clock} advances by what
     * {@code takes} says for the window about to be written (a slow or throttled table, inside one batch).
     */
    static WindowStore slowCreates(TestClock clock, Function<StoredWindow, Duration> takes) {
        return new ForwardingWindowStore(new InMemoryWindowStore(4)) {
            @Override
            public WriteOutcome create(StoredWindow window) {
                clock.advance(takes.apply(window));
                return super.create(window);
            }
        };
    }

    /**
     * Pipeline {@code p} of raw events {@code {"k": key, "id": event id, "t": epoch ms}} with the given window, a
     * 10-minute lifetime and a watermark with no out-of-orderness, idle after 5 minutes.
     */
    static String rawPipeline(String window) {
        return rawPipeline(window, "10m", "{outOfOrderness: 0s, idleAfter: 5m}", "");
    }

    /** As {@link #rawPipeline(String)}, with the given lifetime and watermark, and {@code more} pipeline fields (lines). */
    static String rawPipeline(String window, String maxLifetime, String watermark, String more) {
        return "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
                + "    eventTime: {path: $.t}\n    window: " + window + "\n    triggers: {maxLifetime: " + maxLifetime + "}\n"
                + "    watermark: " + watermark + "\n" + more + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
    }

    /** The body of a raw event of {@link #rawPipeline}. */
    static String rawEvent(String key, String eventId, Instant eventTime) {
        return "{\"k\":\"" + key + "\",\"id\":\"" + eventId + "\",\"t\":" + eventTime.toEpochMilli() + "}";
    }

    /** A message on its {@code attempt}th delivery, sent and received at {@code arrival}. */
    static InboundMessage message(String messageId, String body, Instant arrival, int attempt) {
        return new InboundMessage(messageId, body, attempt, arrival, arrival, Map.of());
    }
}
