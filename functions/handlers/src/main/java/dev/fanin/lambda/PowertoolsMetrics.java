package dev.fanin.lambda;

import dev.fanin.core.port.Metrics;
import dev.fanin.core.service.MetricNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.cloudwatchlogs.emf.config.EnvironmentConfigurationProvider;
import software.amazon.lambda.powertools.metrics.model.DimensionSet;
import software.amazon.lambda.powertools.metrics.model.MetricUnit;
import software.amazon.lambda.powertools.metrics.provider.EmfMetricsProvider;

/**
 * The core's {@link Metrics} port as CloudWatch Embedded Metric Format, written by Powertools (no AspectJ).
 *
 * <p>Invariants the template's alarms and dashboard rely on: namespace {@value #NAMESPACE}; every metric has the
 * dimension {@code service=fanin}, and only that one. Whatever the core passes as "dimensions" (pipeline, close
 * reason, late disposition...) is written as EMF <em>properties</em> of the log record: searchable with Logs
 * Insights, but not dimensions, so a metric is one series per name (cheap, and matched by the alarms). The few
 * gauges an operator watches per pipeline ({@link #PIPELINE_GAUGES}) are written a second time, in a record of their
 * own with dimensions {@code service} and {@code pipeline}: one more series per pipeline each. A property named
 * {@code service} would overwrite the dimension's value, so it is dropped.
 *
 * <p>Values are buffered during an invocation and written by {@link #flush(String)} once, at its end: one EMF
 * record per distinct property set, each value of a metric kept (EMF value arrays), so every statistic (Sum,
 * Maximum, Average, SampleCount) stays exact. A failure to write metrics is logged and never fails an invocation.
 */
public final class PowertoolsMetrics implements Metrics {

    public static final String NAMESPACE = "Fanin";
    public static final String SERVICE_DIMENSION = "service";
    public static final String SERVICE = "fanin";
    public static final String PIPELINE_DIMENSION = "pipeline";
    /** Also written per pipeline (dimensions service and pipeline), for alarms and graphs of one pipeline. */
    public static final List<String> PIPELINE_GAUGES = List.of(MetricNames.OPEN_WINDOWS, MetricNames.OLDEST_OPEN_WINDOW_AGE,
            MetricNames.OVERDUE_WINDOWS, MetricNames.SECONDS_PAST_HARD_DEADLINE);
    /** EMF property carrying the Lambda request id, as Powertools names it in logs. */
    public static final String REQUEST_ID_PROPERTY = "function_request_id";

    private static final Logger LOG = LoggerFactory.getLogger(PowertoolsMetrics.class);

    private final Supplier<software.amazon.lambda.powertools.metrics.Metrics> documents;
    /** Properties -> metric name -> values, in recording order. */
    private final Map<Map<String, String>, Map<String, Series>> pending = new LinkedHashMap<>();

    private record Series(MetricUnit unit, List<Double> values) { }

    public PowertoolsMetrics() {
        this(new EmfMetricsProvider()::getMetricsInstance);
        // Outside Lambda (fanin local, AWS_EMF_ENVIRONMENT=Local) the EMF library warns "Unknown ServiceName." at every
        // record unless it knows the service; in Lambda it takes the function's name and ignores this.
        EnvironmentConfigurationProvider.getConfig().setServiceName(SERVICE);
    }

    /** @param documents a fresh Powertools metrics logger per EMF record */
    PowertoolsMetrics(Supplier<software.amazon.lambda.powertools.metrics.Metrics> documents) {
        this.documents = Objects.requireNonNull(documents, "documents");
    }

    @Override
    public synchronized void record(String name, double value, Unit unit, Map<String, String> dimensions) {
        if (!Double.isFinite(value)) {
            LOG.warn("metric {} dropped: value {} is not finite", name, value);
            return;
        }
        Map<String, String> properties = new TreeMap<>(dimensions == null ? Map.of() : dimensions);
        properties.remove(SERVICE_DIMENSION);
        properties.values().removeIf(Objects::isNull);
        pending.computeIfAbsent(properties, p -> new LinkedHashMap<>())
                .computeIfAbsent(name, n -> new Series(unit(unit), new ArrayList<>()))
                .values().add(value);
    }

    /** Values recorded since the last flush, by metric name, over every property set (for logs and tests). */
    public synchronized Map<String, List<Double>> pendingValues() {
        Map<String, List<Double>> all = new TreeMap<>();
        pending.values().forEach(byName -> byName.forEach((name, series) ->
                all.computeIfAbsent(name, n -> new ArrayList<>()).addAll(series.values())));
        return all;
    }

    /**
     * Writes everything recorded since the last flush and forgets it.
     *
     * @param requestId the Lambda request id, written as property {@value #REQUEST_ID_PROPERTY}; null outside Lambda
     */
    public synchronized void flush(String requestId) {
        try {
            pending.forEach((properties, byName) -> {
                write(properties, byName, requestId);
                writePerPipeline(properties, byName, requestId);
            });
        } finally {
            pending.clear();
        }
    }

    /** The {@link #PIPELINE_GAUGES} among {@code byName}, again, with dimension {@code pipeline} as well. */
    private void writePerPipeline(Map<String, String> properties, Map<String, Series> byName, String requestId) {
        String pipeline = properties.get(PIPELINE_DIMENSION);
        Map<String, Series> gauges = new LinkedHashMap<>(byName);
        gauges.keySet().retainAll(PIPELINE_GAUGES);
        if (pipeline != null && !gauges.isEmpty()) {
            write(DimensionSet.of(SERVICE_DIMENSION, SERVICE, PIPELINE_DIMENSION, pipeline), Map.of(), gauges, requestId);
        }
    }

    private void write(Map<String, String> properties, Map<String, Series> byName, String requestId) {
        write(DimensionSet.of(SERVICE_DIMENSION, SERVICE), properties, byName, requestId);
    }

    private void write(DimensionSet dimensions, Map<String, String> properties, Map<String, Series> byName, String requestId) {
        try {
            software.amazon.lambda.powertools.metrics.Metrics doc = documents.get();
            doc.setNamespace(NAMESPACE);
            doc.setDefaultDimensions(dimensions);
            properties.forEach(doc::addMetadata);
            if (requestId != null) {
                doc.addMetadata(REQUEST_ID_PROPERTY, requestId);
            }
            byName.forEach((name, series) -> series.values().forEach(v -> doc.addMetric(name, v, series.unit())));
            doc.flush();
        } catch (RuntimeException e) {
            LOG.warn("metrics {} with properties {} not written: {}", byName.keySet(), properties, e.toString());
        }
    }

    private static MetricUnit unit(Unit unit) {
        if (unit == null) {
            return MetricUnit.NONE;
        }
        switch (unit) {
            case COUNT:
                return MetricUnit.COUNT;
            case MILLISECONDS:
                return MetricUnit.MILLISECONDS;
            case SECONDS:
                return MetricUnit.SECONDS;
            default:
                return MetricUnit.NONE;
        }
    }
}
