package dev.fanin.sim;

import dev.fanin.core.port.Metrics;
import java.util.Map;
import java.util.TreeMap;

/** A metrics sink that sums every metric by name, for the report (takeovers, duplicate flushes, conflicts...). */
public final class SimMetrics implements Metrics {

    private final Map<String, Double> sums = new TreeMap<>();

    @Override
    public void record(String name, double value, Unit unit, Map<String, String> dimensions) {
        if (unit == Unit.COUNT) {
            sums.merge(name, value, Double::sum);
        }
    }

    public long total(String name) {
        return Math.round(sums.getOrDefault(name, 0.0));
    }
}
