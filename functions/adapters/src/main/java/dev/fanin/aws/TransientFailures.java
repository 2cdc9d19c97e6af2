package dev.fanin.aws;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/** Which AWS failures are worth retrying: throttling, 5xx, and client-side failures (timeouts, connection resets). */
public final class TransientFailures {

    private TransientFailures() { }

    public static boolean isTransient(SdkException failure) {
        if (failure instanceof SdkClientException) {
            return true;
        }
        return failure instanceof AwsServiceException service && (service.isThrottlingException() || service.statusCode() >= 500);
    }

    /** The service's error code and message, or the exception's class and message. */
    public static String describe(SdkException failure) {
        if (failure instanceof AwsServiceException service && service.awsErrorDetails() != null) {
            return service.awsErrorDetails().errorCode() + ": " + service.awsErrorDetails().errorMessage();
        }
        return failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }
}
