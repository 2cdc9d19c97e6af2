package dev.fanin.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import java.util.function.Supplier;
import software.amazon.lambda.powertools.logging.PowertoolsLogging;

/**
 * The frame of every invocation: Powertools' structured logging (request id, cold start, function name in every
 * log line; the MDC cleared afterwards), the pipeline configuration brought up to date first (an invocation fails
 * when there is no valid one), and one flush of the metrics at the end, whatever happened.
 */
final class Invocations {

    private Invocations() {
    }

    static <T> T run(FaninRuntime runtime, Context context, Supplier<T> work) {
        return PowertoolsLogging.withLogging(context, () -> {
            try {
                runtime.refresh();
                return work.get();
            } finally {
                runtime.metrics().flush(context == null ? null : context.getAwsRequestId());
            }
        });
    }
}
