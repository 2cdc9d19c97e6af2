package dev.fanin.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.MetricNames;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The SQS-triggered ingest function (event source with {@code ReportBatchItemFailures}): decodes the batch, hands
 * it to the core's {@link dev.fanin.core.service.IngestService}, and reports exactly the messages that must be
 * redelivered. A bad message never fails the batch (the core dead-letters it with its reason); an unexpected
 * failure of the whole batch reports every message as failed, so nothing is lost. The batch stops at the
 * invocation's {@link InvocationDeadline} and reports what it did not reach, rather than timing out with nothing
 * reported (a timeout's messages come back with no reason, and the redrive dead-letters them without one).
 */
public final class IngestFunction implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = LoggerFactory.getLogger(IngestFunction.class);

    private final FaninRuntime runtime;

    /** Lambda's cold start: the runtime from the process environment. */
    public IngestFunction() {
        this(FaninRuntime.fromEnvironment());
    }

    public IngestFunction(FaninRuntime runtime) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        return Invocations.run(runtime, context, () -> handle(event, context));
    }

    private SQSBatchResponse handle(SQSEvent event, Context context) {
        List<SQSEvent.SQSMessage> records = event == null || event.getRecords() == null ? List.of() : event.getRecords();
        Instant receivedAt = runtime.engine().clock().instant();
        // The time left once the configuration is up to date. Without a context (a caller outside Lambda and the
        // runners) the batch has all the time it needs.
        Instant deadline = context == null ? Instant.MAX
                : InvocationDeadline.of(receivedAt, Duration.ofMillis(context.getRemainingTimeInMillis()));
        runtime.writeCosts().reset();
        BatchResult result;
        try {
            runtime.requirePipelinesRecorded();
            result = runtime.ingest().handle(records.stream().map(m -> inbound(m, receivedAt)).toList(), deadline);
        } catch (RuntimeException e) {
            LOG.error("the batch of {} messages failed as a whole; every message is handed back to SQS but those on their"
                    + " last delivery, dead-lettered with the reason", records.size(), e);
            runtime.metrics().record(FunctionMetricNames.INVOCATION_ERRORS, 1, Metrics.Unit.COUNT, Map.of("function", "ingest"));
            return failures(failedAsAWhole(records, receivedAt, e));
        }
        recordCost(result);
        if (!result.failedMessageIds().isEmpty()) {
            runtime.metrics().record(FunctionMetricNames.MESSAGES_RETRIED, result.failedMessageIds().size(), Metrics.Unit.COUNT,
                    Map.of("function", "ingest"));
        }
        logSummary(result);
        return failures(result.failedMessageIds());
    }

    /** The messages to hand back after the batch failed as a whole: all of them if even that cannot be decided. */
    private List<String> failedAsAWhole(List<SQSEvent.SQSMessage> records, Instant receivedAt, RuntimeException e) {
        try {
            return runtime.ingest().failedAsAWhole(records.stream().map(m -> inbound(m, receivedAt)).toList(),
                    "the batch failed as a whole: " + e);
        } catch (RuntimeException again) {
            LOG.error("messages on their last delivery could not be dead-lettered either; SQS's redrive takes them", again);
            return records.stream().map(SQSEvent.SQSMessage::getMessageId).toList();
        }
    }

    /** One SQS record as the core sees it: a delivery (its attempt, its sent time), received now. */
    static InboundMessage inbound(SQSEvent.SQSMessage message, Instant receivedAt) {
        String body = message.getBody() == null ? "" : message.getBody();
        return SqsDeliveries.inbound(message.getMessageId(), body, message.getAttributes(), producerAttributes(message), receivedAt);
    }

    /** The producer's message attributes by their string values; a binary one (no string value) as the empty string. */
    private static Map<String, String> producerAttributes(SQSEvent.SQSMessage message) {
        Map<String, String> attributes = new LinkedHashMap<>();
        if (message.getMessageAttributes() != null) {
            message.getMessageAttributes().forEach((name, value) ->
                    attributes.put(name, value == null || value.getStringValue() == null ? "" : value.getStringValue()));
        }
        return attributes;
    }

    /** Size-based write units of this batch's window writes per event accepted; nothing when none was accepted. */
    private void recordCost(BatchResult result) {
        double units = runtime.writeCosts().sizeBasedUnits();
        if (result.eventsAccepted() > 0) {
            runtime.metrics().record(MetricNames.WRITE_UNITS_PER_EVENT, units / result.eventsAccepted(), Metrics.Unit.NONE,
                    Map.of("function", "ingest"));
        }
    }

    private static SQSBatchResponse failures(List<String> messageIds) {
        return SQSBatchResponse.builder()
                .withBatchItemFailures(messageIds.stream()
                        .map(id -> SQSBatchResponse.BatchItemFailure.builder().withItemIdentifier(id).build())
                        .toList())
                .build();
    }

    private static void logSummary(BatchResult r) {
        Map<String, String> fields = Map.of(
                "messages", String.valueOf(r.messages()),
                "eventsAccepted", String.valueOf(r.eventsAccepted()),
                "duplicates", String.valueOf(r.duplicates()),
                "late", String.valueOf(r.late()),
                "tooLate", String.valueOf(r.tooLate()),
                "deadLettered", String.valueOf(r.deadLettered()),
                "ignored", String.valueOf(r.ignored()),
                "retried", String.valueOf(r.failedMessageIds().size()));
        try {
            fields.forEach(MDC::put);
            LOG.info("batch handled");
        } finally {
            fields.keySet().forEach(MDC::remove);
        }
    }
}
