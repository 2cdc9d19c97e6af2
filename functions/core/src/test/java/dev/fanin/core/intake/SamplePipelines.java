package dev.fanin.core.intake;

import static dev.fanin.core.intake.PipelineFixture.equalTo;
import static dev.fanin.core.intake.PipelineFixture.extract;
import static dev.fanin.core.intake.PipelineFixture.pipeline;

import dev.fanin.core.config.Envelope;
import dev.fanin.core.config.EventTimeSpec.TimeFallback;
import dev.fanin.core.config.EventTimeSpec.TimeFormat;
import dev.fanin.core.config.FaninConfig;
import java.time.Duration;

/**
 * The intake-relevant part of the four sample pipelines shipped in infra/ (match, envelope, key, id, time), as
 * the files in events/ are written for them.
 */
final class SamplePipelines {

    private SamplePipelines() {
    }

    static FaninConfig all() {
        return PipelineFixture.config(
                pipeline("alert-storm").envelope(Envelope.EVENTBRIDGE)
                        .when(equalTo("$envelope.source", "custom.alerts"))
                        .key("$envelope.account", "$envelope.region", "$.service")
                        .eventId("$envelope.id")
                        .eventTime("$envelope.time", TimeFormat.ISO_8601, TimeFallback.SQS_SENT_TIMESTAMP, Duration.ofMinutes(5), Duration.ofDays(1)),
                pipeline("alert-storm-sns").envelope(Envelope.SNS)
                        .when(equalTo("$.source", "custom.alerts"))
                        .key("$.account", "$.region", "$.service")
                        .eventId("$.alertId")
                        .eventTime("$.time", TimeFormat.ISO_8601, TimeFallback.SQS_SENT_TIMESTAMP, Duration.ofMinutes(5), Duration.ofDays(1)),
                pipeline("file-uploads").envelope(Envelope.S3)
                        .when(equalTo("$.s3.bucket.name", "acme-ingest"))
                        .key(extract("$.s3.object.key", "^(.*)/[^/]+$"))
                        .eventTime("$.eventTime", TimeFormat.ISO_8601, TimeFallback.SQS_SENT_TIMESTAMP, Duration.ofMinutes(5), Duration.ofDays(1)),
                pipeline("shard-completions").envelope(Envelope.RAW)
                        .when(equalTo("$.type", "shard.done"))
                        .key("$.jobId", "$.runId")
                        .eventId("$.shard")
                        .eventTime("$.finishedAt", TimeFormat.AUTO, TimeFallback.REJECT, Duration.ofMinutes(15), Duration.ofDays(2)));
    }
}
