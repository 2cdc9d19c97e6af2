package dev.fanin.it;

import dev.fanin.core.port.Metrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Keeps every metric recorded, for assertions on counts by name and dimension. */
final class RecordingMetrics implements Metrics {

    record Point(String name, double value, Map<String, String> dimensions) { }

    private final List<Point> points = new ArrayList<>();

    @Override
    public synchronized void record(String name, double value, Unit unit, Map<String, String> dimensions) {
        points.add(new Point(name, value, Map.copyOf(dimensions)));
    }

    /** Sum of the values recorded under {@code name} whose dimensions include {@code dimensions}. */
    synchronized double sum(String name, Map<String, String> dimensions) {
        return points.stream()
                .filter(p -> p.name().equals(name) && p.dimensions().entrySet().containsAll(dimensions.entrySet()))
                .mapToDouble(Point::value).sum();
    }

    double sum(String name) {
        return sum(name, Map.of());
    }
}
