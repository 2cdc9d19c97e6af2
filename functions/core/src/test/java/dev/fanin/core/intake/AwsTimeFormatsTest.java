package dev.fanin.core.intake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.config.EventTimeSpec.TimeFormat;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every time format docs/INTAKE.md lists, as the AWS service writes it (values from the services' documented sample
 * events), is read as the instant it means, by the format named and by AUTO.
 */
class AwsTimeFormatsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> samples() {
        return Stream.of(
                Arguments.of("EventBridge envelope time (second precision)", "\"2019-10-02T17:04:40Z\"", TimeFormat.ISO_8601, "2019-10-02T17:04:40Z"),
                Arguments.of("CloudWatch alarm state.timestamp", "\"2019-10-02T17:04:40.985+0000\"", TimeFormat.ISO_8601, "2019-10-02T17:04:40.985Z"),
                Arguments.of("CloudWatch alarm via SNS StateChangeTime", "\"2016-08-18T20:45:13.474+0000\"", TimeFormat.ISO_8601, "2016-08-18T20:45:13.474Z"),
                Arguments.of("S3 notification eventTime", "\"1970-01-01T00:00:00.000Z\"", TimeFormat.ISO_8601, "1970-01-01T00:00:00Z"),
                Arguments.of("SNS Timestamp", "\"2012-04-25T21:49:25.719Z\"", TimeFormat.ISO_8601, "2012-04-25T21:49:25.719Z"),
                Arguments.of("GuardDuty finding createdAt", "\"2021-01-22T21:14:59.471Z\"", TimeFormat.ISO_8601, "2021-01-22T21:14:59.471Z"),
                Arguments.of("GuardDuty service.eventFirstSeen", "\"2021-01-22T21:13:48Z\"", TimeFormat.ISO_8601, "2021-01-22T21:13:48Z"),
                Arguments.of("CloudTrail eventTime", "\"2014-03-06T21:22:54Z\"", TimeFormat.ISO_8601, "2014-03-06T21:22:54Z"),
                Arguments.of("Security Hub finding UpdatedAt (microseconds)", "\"2021-02-22T08:51:31.123456Z\"", TimeFormat.ISO_8601, "2021-02-22T08:51:31.123456Z"),
                Arguments.of("an offset with a colon", "\"2026-11-29T10:59:30.250+01:00\"", TimeFormat.ISO_8601, "2026-11-29T09:59:30.250Z"),
                Arguments.of("AWS Health startTime (RFC 1123)", "\"Sun, 05 Jun 2016 15:10:09 GMT\"", TimeFormat.ISO_8601, "2016-06-05T15:10:09Z"),
                Arguments.of("SQS SentTimestamp (epoch ms, a string)", "\"1545082649183\"", TimeFormat.EPOCH_MILLIS, "2018-12-17T21:37:29.183Z"),
                Arguments.of("Kinesis approximateArrivalTimestamp (epoch s)", "1545084650.987", TimeFormat.EPOCH_SECONDS, "2018-12-17T22:10:50.987Z"),
                Arguments.of("DynamoDB stream ApproximateCreationDateTime", "1479499740", TimeFormat.EPOCH_SECONDS, "2016-11-18T20:09:00Z"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("samples")
    void readsTheTimeAsTheServiceWritesIt(String where, String valueJson, TimeFormat format, String expected) throws Exception {
        JsonNode value = JSON.readTree(valueJson);

        assertThat(EventTimes.parse(value, format, "$.t")).isEqualTo(Instant.parse(expected));
        assertThat(EventTimes.parse(value, TimeFormat.AUTO, "$.t")).as("auto").isEqualTo(Instant.parse(expected));
    }
}
