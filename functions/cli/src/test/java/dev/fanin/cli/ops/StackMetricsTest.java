package dev.fanin.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.cloudwatch.model.CloudWatchException;

/**
 * {@code fanin status} names why CloudWatch's metrics could not be read, as CloudWatch said it (a review: every error,
 * an AccessDenied for want of cloudwatch:GetMetricData included, read "the endpoint does not serve GetMetricData").
 */
class StackMetricsTest {

    @Test
    void aRefusedReadSaysItsErrorCodeAndMessage() {
        CloudWatchException denied = (CloudWatchException) CloudWatchException.builder().statusCode(403)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDenied")
                        .errorMessage("User: arn:aws:iam::1:user/ops is not authorized to perform: cloudwatch:GetMetricData").build())
                .build();

        assertThat(new StackMetrics.Unreadable(denied).getMessage())
                .isEqualTo("AccessDenied: User: arn:aws:iam::1:user/ops is not authorized to perform: cloudwatch:GetMetricData");
    }
}
