package dev.fanin.aws.dynamodb;

import dev.fanin.aws.TransientFailures;
import dev.fanin.core.port.StoreUnavailableException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Which DynamoDB failures are transient. Throttling, 5xx and client-side failures (timeouts, connection resets)
 * become {@link StoreUnavailableException}, so the caller fails only the affected messages and SQS redelivers
 * them. Anything else (validation errors, a missing table) is a bug or a misconfiguration and propagates as is.
 */
final class DynamoDbFailures {

    private DynamoDbFailures() { }

    static RuntimeException translate(String operation, SdkException failure) {
        if (isTransient(failure)) {
            return new StoreUnavailableException("DynamoDB " + operation + " failed transiently: " + failure.getMessage(), failure);
        }
        return failure;
    }

    static boolean isTransient(SdkException failure) {
        return TransientFailures.isTransient(failure);
    }

    /** A cancellation reason that is the other side of a race rather than an outage. */
    static boolean isConditionOrConflict(CancellationReason reason) {
        String code = reason.code();
        return "ConditionalCheckFailed".equals(code) || "TransactionConflict".equals(code);
    }

    /** Whether any item of a cancelled transaction was cancelled for throttling or capacity. */
    static boolean isThrottled(TransactionCanceledException cancelled) {
        return cancelled.hasCancellationReasons() && cancelled.cancellationReasons().stream()
                .anyMatch(r -> "ThrottlingError".equals(r.code()) || "ProvisionedThroughputExceeded".equals(r.code()));
    }
}
