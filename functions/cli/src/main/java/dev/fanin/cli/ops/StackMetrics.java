package dev.fanin.cli.ops;

import dev.fanin.core.service.MetricNames;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;

/**
 * The stack's CloudWatch metrics over one period (docs/OPERATIONS.md: namespace {@code Fanin}, the series of dimension
 * {@code service=fanin} alone, so these figures are for the whole stack; the counters have no pipeline dimension),
 * read with one GetMetricData call. Empty when the endpoint does not serve it.
 */
final class StackMetrics {

    static final String NAMESPACE = "Fanin";
    private static final Dimension SERVICE = Dimension.builder().name("service").value("fanin").build();

    /** Metric name and the statistic it is read with (OPERATIONS: gauges with Maximum, counters with Sum). */
    static final Map<String, String> READ = new LinkedHashMap<>();

    static {
        READ.put(MetricNames.EVENTS_ACCEPTED, "Sum");
        READ.put(MetricNames.LATE_EVENTS, "Sum");
        READ.put(MetricNames.DEAD_LETTERED, "Sum");
        READ.put(MetricNames.EMIT_FAILURES, "Sum");
        READ.put(MetricNames.OLDEST_OPEN_WINDOW_AGE, "Maximum");
        READ.put(MetricNames.OVERDUE_WINDOWS, "Maximum");
    }

    private StackMetrics() {
    }

    /** Why the metrics could not be read, as CloudWatch (or the endpoint) said it: an error code and its message. */
    static final class Unreadable extends Exception {

        Unreadable(SdkException e) {
            super(describe(e), e);
        }

        /** CloudWatch's error code and message; the SDK's text (HTTP status and service) when the answer named none. */
        private static String describe(SdkException e) {
            if (e instanceof AwsServiceException aws && aws.awsErrorDetails() != null && aws.awsErrorDetails().errorCode() != null) {
                String message = aws.awsErrorDetails().errorMessage();
                return aws.awsErrorDetails().errorCode() + (message == null ? "" : ": " + message);
            }
            return e.getMessage();
        }
    }

    /**
     * Each metric's value over [from, to): the sum, or the maximum; absent when no data point fell in the period.
     *
     * @throws Unreadable when CloudWatch refuses the call (access denied, throttled) or the endpoint does not serve it
     */
    static Map<String, Double> read(CloudWatchClient cloudWatch, Instant from, Instant to) throws Unreadable {
        List<MetricDataQuery> queries = READ.entrySet().stream().map(e -> MetricDataQuery.builder()
                .id("m" + Integer.toHexString(e.getKey().hashCode() & 0xfffffff))
                .metricStat(s -> s.metric(m -> m.namespace(NAMESPACE).metricName(e.getKey()).dimensions(SERVICE))
                        .period((int) java.time.Duration.between(from, to).getSeconds()).stat(e.getValue()))
                .build()).toList();
        GetMetricDataResponse response;
        try {
            response = cloudWatch.getMetricData(r -> r.startTime(from).endTime(to).metricDataQueries(queries));
        } catch (SdkException e) {
            throw new Unreadable(e);
        }
        Map<String, Double> values = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : READ.entrySet()) {
            String id = "m" + Integer.toHexString(e.getKey().hashCode() & 0xfffffff);
            response.metricDataResults().stream().filter(r -> r.id().equals(id)).findFirst()
                    .map(MetricDataResult::values).filter(v -> !v.isEmpty())
                    .ifPresent(v -> values.put(e.getKey(), e.getValue().equals("Sum")
                            ? v.stream().mapToDouble(Double::doubleValue).sum() : v.stream().mapToDouble(Double::doubleValue).max().orElse(0)));
        }
        return values;
    }
}
