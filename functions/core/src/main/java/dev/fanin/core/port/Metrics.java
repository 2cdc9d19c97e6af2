package dev.fanin.core.port;

import java.util.Map;

/** Metrics sink. Names and dimensions are listed in docs/OPERATIONS.md. */
public interface Metrics {

    enum Unit { COUNT, MILLISECONDS, SECONDS, NONE }

    void record(String name, double value, Unit unit, Map<String, String> dimensions);

    default void count(String name, String pipeline) {
        record(name, 1, Unit.COUNT, Map.of("pipeline", pipeline));
    }

    Metrics NONE = (name, value, unit, dimensions) -> { };
}
