package dev.fanin.core.service;

import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.DeadLetters;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.SideOutput;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WindowTimers;
import java.util.Objects;

/** Everything the services talk to, built once per process (cold start) by the handlers or the local runner. */
public record FaninPorts(
        WindowStore store,
        WatermarkStore watermarks,
        AggregateEmitter emitter,
        WindowTimers timers,
        SideOutput sideOutput,
        DeadLetters deadLetters,
        Metrics metrics) {

    public FaninPorts {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(watermarks, "watermarks");
        Objects.requireNonNull(emitter, "emitter");
        Objects.requireNonNull(timers, "timers");
        Objects.requireNonNull(sideOutput, "sideOutput");
        Objects.requireNonNull(deadLetters, "deadLetters");
        Objects.requireNonNull(metrics, "metrics");
    }
}
