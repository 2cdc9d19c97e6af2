package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FunctionSettingsTest {

    private static Map<String, String> complete() {
        Map<String, String> env = new HashMap<>();
        env.put("FANIN_TABLE_NAME", "windows");
        env.put("FANIN_CONFIG", "file:/opt/fanin/pipelines.yaml");
        env.put("FANIN_EMIT_BUS_NAME", "bus");
        env.put("FANIN_TIMER_QUEUE_URL", "https://sqs.eu-west-1.amazonaws.com/1/timers");
        env.put("FANIN_SIDE_OUTPUT_QUEUE_URL", "https://sqs.eu-west-1.amazonaws.com/1/late");
        env.put("FANIN_DEAD_LETTER_QUEUE_URL", "https://sqs.eu-west-1.amazonaws.com/1/dlq");
        env.put("FANIN_MAX_RECEIVE_COUNT", "5");
        env.put("FANIN_DUE_SHARDS", "16");
        env.put("FANIN_INGEST_TIMEOUT_SECONDS", "45");
        env.put("FANIN_SWEEP_PARALLELISM", "4");
        env.put("AWS_REGION", "eu-west-1");
        return env;
    }

    @Test
    void readsEveryVariable() {
        FunctionSettings s = FunctionSettings.from(complete());

        assertThat(s.tableName()).isEqualTo("windows");
        assertThat(s.configLocation()).isEqualTo("file:/opt/fanin/pipelines.yaml");
        assertThat(s.timerQueueUrl()).endsWith("/timers");
        assertThat(s.sideOutputQueueUrl()).endsWith("/late");
        assertThat(s.deadLetterQueueUrl()).endsWith("/dlq");
        assertThat(s.maxReceiveCount()).isEqualTo(5);
        assertThat(s.dueShards()).isEqualTo(16);
        assertThat(s.ingestTimeoutSeconds()).isEqualTo(45);
        assertThat(s.sweepParallelism()).isEqualTo(4);
        assertThat(s.region()).isEqualTo("eu-west-1");
        assertThat(s.endpoint()).isEmpty();
        assertThat(s.credentials()).as("Lambda sets keys; without them the SDK's default chain applies").isEmpty();
    }

    @Test
    void theConfigDefaultsToTheBundledPipelinesAndLocalRunsGiveAnEndpointAndKeys() {
        Map<String, String> env = complete();
        env.remove("FANIN_CONFIG");
        env.remove("FANIN_INGEST_TIMEOUT_SECONDS");
        env.remove("FANIN_SWEEP_PARALLELISM");
        env.put("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");
        env.put("AWS_ACCESS_KEY_ID", "id");
        env.put("AWS_SECRET_ACCESS_KEY", "s3cr3t-value");

        FunctionSettings s = FunctionSettings.from(env);

        assertThat(s.configLocation()).isEqualTo("classpath:fanin/pipelines.yaml");
        assertThat(s.ingestTimeoutSeconds()).as("the template's default when unset").isEqualTo(30);
        assertThat(s.sweepParallelism()).as("the template's default when unset").isEqualTo(8);
        assertThat(s.endpoint()).contains(URI.create("http://127.0.0.1:4566"));
        assertThat(s.credentials()).hasValueSatisfying(c -> {
            assertThat(c.accessKeyId()).isEqualTo("id");
            assertThat(c.sessionToken()).isNull();
            assertThat(c.toString()).doesNotContain("s3cr3t-value");
        });
    }

    @Test
    void refusesMoreDueShardsThanTheSweeperCanRead() {
        Map<String, String> env = complete();
        env.put("FANIN_DUE_SHARDS", "257");

        assertThatThrownBy(() -> FunctionSettings.from(env))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("environment variable FANIN_DUE_SHARDS must be at most 256, was \"257\"");
    }

    @Test
    void takesAWholeNumberWrittenWithDecimalsAndRefusesAFraction() {
        // CloudFormation's Number parameters (DueShards, SweepParallelism, MaxReceiveCount) accept both.
        Map<String, String> env = complete();
        env.put("FANIN_DUE_SHARDS", "16.0");
        env.put("FANIN_SWEEP_PARALLELISM", "8.00");

        FunctionSettings s = FunctionSettings.from(env);

        assertThat(s.dueShards()).isEqualTo(16);
        assertThat(s.sweepParallelism()).isEqualTo(8);
        env.put("FANIN_DUE_SHARDS", "16.5");
        assertThatThrownBy(() -> FunctionSettings.from(env))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("FANIN_DUE_SHARDS must be a whole number of at least 1, was \"16.5\"");
    }

    @Test
    void namesEveryMissingOrMalformedVariableAtOnce() {
        Map<String, String> env = complete();
        env.remove("FANIN_TABLE_NAME");
        env.put("FANIN_TIMER_QUEUE_URL", " ");
        env.put("FANIN_DUE_SHARDS", "0");
        env.put("FANIN_MAX_RECEIVE_COUNT", "five");
        env.put("FANIN_SWEEP_PARALLELISM", "-1");
        env.put("FANIN_CONFIG", "https://example.com/pipelines.yaml");
        env.remove("AWS_REGION");

        assertThatThrownBy(() -> FunctionSettings.from(env))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("environment variable FANIN_TABLE_NAME is not set")
                .hasMessageContaining("environment variable FANIN_TIMER_QUEUE_URL is not set")
                .hasMessageContaining("FANIN_DUE_SHARDS must be a whole number of at least 1, was \"0\"")
                .hasMessageContaining("FANIN_MAX_RECEIVE_COUNT must be a whole number of at least 1, was \"five\"")
                .hasMessageContaining("FANIN_SWEEP_PARALLELISM must be a whole number of at least 1, was \"-1\"")
                .hasMessageContaining("FANIN_CONFIG must be classpath:<resource>, file:<path>, s3://<bucket>/<key>, ssm:/<parameter name>"
                        + " or appconfig:<application>/<environment>/<profile>, was \"https://example.com/pipelines.yaml\"")
                .hasMessageContaining("environment variable AWS_REGION is not set");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "classpath:fanin/pipelines.yaml       | CLASSPATH | fanin/pipelines.yaml |           |",
            "classpath:/fanin/pipelines.yaml      | CLASSPATH | fanin/pipelines.yaml |           |",
            "file:/opt/fanin/pipelines.yaml       | FILE      | /opt/fanin/pipelines.yaml |      |",
            "s3://my-config.bucket/fanin/p.yaml   | S3        | my-config.bucket     | fanin/p.yaml |",
            "ssm:/fanin/prod/pipelines            | SSM       | /fanin/prod/pipelines |          |",
            "appconfig:fanin/prod/pipelines       | APPCONFIG | fanin                | prod      | pipelines"})
    void everyConfigurationLocationFormParses(String text, ConfigLocation.Scheme scheme, String path, String key, String profile) {
        ConfigLocation location = ConfigLocation.parse(text);
        assertThat(location).isEqualTo(new ConfigLocation(scheme, path, key, profile));
        assertThat(ConfigLocation.parse(location.toString())).isEqualTo(location);
        assertThat(location.isExternal()).isEqualTo(scheme != ConfigLocation.Scheme.CLASSPATH && scheme != ConfigLocation.Scheme.FILE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "classpath:", "s3://", "s3://bucket", "s3://Bucket_Name/key", "ssm:relative/name",
            "appconfig:app/env", "appconfig:app/env/profile/extra", "https://example.com/p.yaml"})
    void aMalformedLocationIsRejectedWithTheFormsAccepted(String text) {
        assertThatThrownBy(() -> ConfigLocation.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(ConfigLocation.FORMS);
    }
}
