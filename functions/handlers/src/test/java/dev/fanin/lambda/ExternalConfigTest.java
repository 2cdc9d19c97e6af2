package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.testkit.LocalAwsEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterTier;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/**
 * The pipeline configuration read from outside the jar, through the real handlers on the local endpoint: an S3 object
 * and an SSM parameter (moto serves both); a change takes effect at the next read; an invalid document never
 * replaces the valid one in force; without a valid one every invocation fails with the reason. (AppConfig, which no
 * local endpoint here serves, is {@code AppConfigDocumentTest}.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExternalConfigTest {

    private static final String BUNDLED = bundled();
    private static final SQSEvent SHARDS = SampleEvents.sqs("sqs-raw-shards.json");
    private static final Duration REFRESH = Duration.ofMinutes(1);

    private S3Client s3;
    private SsmClient ssm;
    private String bucket;
    /** One stack for the bad documents, published one after the other over the same good one. */
    private LocalFanin shared;

    @BeforeAll
    void clients() {
        LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("fanin-test", "fanin-test"));
        s3 = S3Client.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).region(LocalAwsEndpoint.REGION)
                .credentialsProvider(credentials).endpointOverride(endpoint.endpoint()).forcePathStyle(true).build();
        ssm = SsmClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).region(LocalAwsEndpoint.REGION)
                .credentialsProvider(credentials).endpointOverride(endpoint.endpoint()).build();
        bucket = LocalFanin.prefix("config").toLowerCase() + "bucket";
        s3.createBucket(b -> b.bucket(bucket));
        putObject("shared.yaml", BUNDLED);
        shared = reading("badcfg", "s3://" + bucket + "/shared.yaml");
    }

    @Test
    void anS3ObjectIsReadAndAChangeTakesEffectAtTheNextRead() {
        putObject("pipelines.yaml", BUNDLED);
        LocalFanin fanin = reading("s3cfg", "s3://" + bucket + "/pipelines.yaml");
        assertThat(ingest(fanin).getBatchItemFailures()).isEmpty();
        assertThat(pipelines(fanin)).containsExactly("alert-storm", "alert-storm-sns", "file-uploads", "shard-completions");

        putObject("pipelines.yaml", withoutFileUploads());
        assertThat(pipelines(fanin)).as("not read again before the refresh").contains("file-uploads");
        fanin.clock.advance(REFRESH);
        assertThat(ingest(fanin).getBatchItemFailures()).isEmpty();

        assertThat(pipelines(fanin)).containsExactly("alert-storm", "alert-storm-sns", "shard-completions");
    }

    @Test
    void anSsmParameterIsReadAndAChangeTakesEffectAtTheNextRead() {
        String name = "/" + LocalFanin.prefix("fanin").replace("-", "/") + "pipelines";
        // The bundled document is over the 4 KB of a standard parameter.
        ssm.putParameter(p -> p.name(name).value(BUNDLED).type(ParameterType.SECURE_STRING).tier(ParameterTier.ADVANCED));
        LocalFanin fanin = reading("ssmcfg", "ssm:" + name);
        assertThat(ingest(fanin).getBatchItemFailures()).isEmpty();
        assertThat(pipelines(fanin)).hasSize(4);

        ssm.putParameter(p -> p.name(name).value(withoutFileUploads()).type(ParameterType.SECURE_STRING)
                .tier(ParameterTier.ADVANCED).overwrite(true));
        fanin.clock.advance(REFRESH);
        assertThat(ingest(fanin).getBatchItemFailures()).isEmpty();

        assertThat(pipelines(fanin)).containsExactly("alert-storm", "alert-storm-sns", "shard-completions");
    }

    @Test
    void withoutAValidConfigurationEveryInvocationFailsWithTheReasonUntilOneIsPublished() {
        LocalFanin fanin = reading("nocfg", "s3://" + bucket + "/not-yet.yaml");

        assertThatThrownBy(() -> ingest(fanin)).isInstanceOf(NoValidConfigurationException.class)
                .hasMessageContaining("fanin has no valid pipeline configuration (FANIN_CONFIG=s3://" + bucket + "/not-yet.yaml)")
                .hasMessageContaining("no such object");
        putObject("not-yet.yaml", "version: 1\npipelines: []\n");
        fanin.clock.advance(REFRESH);
        assertThatThrownBy(() -> ingest(fanin)).as("an invalid first document").hasMessageContaining("is invalid")
                .hasMessageContaining("pipelines");

        putObject("not-yet.yaml", BUNDLED);
        fanin.clock.advance(REFRESH);
        assertThat(ingest(fanin).getBatchItemFailures()).isEmpty();
    }

    /**
     * An instance started after an invalid publish (a cold start, a scale-out) has no valid document of its own: it
     * runs on the one the functions last ran, from the pipeline history, until a valid one is published (a review:
     * every invocation of every new instance failed, the sweeper's too, so windows stopped closing).
     */
    @Test
    void aNewInstanceRunsOnTheConfigurationTheFunctionsLastRanWhileThePublishedOneIsInvalid() {
        putObject("cold.yaml", BUNDLED);
        LocalFanin running = reading("coldcfg", "s3://" + bucket + "/cold.yaml");
        assertThat(ingest(running).getBatchItemFailures()).isEmpty();
        putObject("cold.yaml", "version: 1\npipelines: []\n");

        LogCapture.Captured<FaninRuntime> started = LogCapture.run(() -> FaninRuntime.create(running.environment, running.clock));
        FaninRuntime cold = started.result();

        assertThat(new IngestFunction(cold).handleRequest(SHARDS, TestContexts.invocation("cold")).getBatchItemFailures()).isEmpty();
        assertThat(cold.engine().config().pipelines()).extracting(PipelineConfig::name).contains("file-uploads");
        assertThat(started.at("WARN")).anySatisfy(w -> assertThat(w).contains("the configuration the functions last ran"));
        putObject("cold.yaml", withoutFileUploads());
        running.clock.advance(REFRESH);
        assertThat(new IngestFunction(cold).handleRequest(SHARDS, TestContexts.invocation("cold-2")).getBatchItemFailures()).isEmpty();
        assertThat(cold.engine().config().pipelines()).extracting(PipelineConfig::name).doesNotContain("file-uploads");
    }

    /** Each kind of invalid document, published over a valid one: the valid one stays in force, the ERROR names why. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidDocuments")
    void anInvalidDocumentNeverReplacesTheValidOneInForce(String kind, String document, String named) {
        putObject("shared.yaml", BUNDLED);
        shared.clock.advance(REFRESH);
        assertThat(ingest(shared).getBatchItemFailures()).isEmpty();
        FaninConfig good = shared.runtime.engine().config();

        putObject("shared.yaml", document);
        shared.clock.advance(REFRESH);
        LogCapture.Captured<StdoutCapture.Captured<SQSBatchResponse>> run = LogCapture.run(() -> StdoutCapture.run(() -> ingest(shared)));

        assertThat(run.result().result().getBatchItemFailures()).as("the batch ran on the configuration in force").isEmpty();
        assertThat(shared.runtime.engine().config()).isSameAs(good);
        assertThat(run.at("ERROR")).singleElement().asString()
                .contains("pipeline configuration " + LiveConfig.digest(document) + " rejected")
                .contains("stays in force")
                .contains(named);
        assertThat(EmfRecords.values(run.result().lines(), FunctionMetricNames.CONFIG_REJECTED)).containsExactly(1.0);

        shared.clock.advance(REFRESH);
        LogCapture.Captured<StdoutCapture.Captured<SQSBatchResponse>> again = LogCapture.run(() -> StdoutCapture.run(() -> ingest(shared)));
        assertThat(again.at("ERROR")).as("logged once per document").isEmpty();
        assertThat(EmfRecords.values(again.result().lines(), FunctionMetricNames.CONFIG_REJECTED))
                .as("counted while it is the newest").containsExactly(1.0);
    }

    Stream<Arguments> invalidDocuments() {
        return Stream.of(
                Arguments.of("not YAML", "version: 1\npipelines: [ {name: x\n", "line"),
                Arguments.of("empty", "", "empty"),
                Arguments.of("a list, not a document", "- 1\n- 2\n", "mapping"),
                Arguments.of("unsupported version", BUNDLED.replace("version: 1", "version: 2"), "version"),
                Arguments.of("no pipelines", "version: 1\npipelines: []\n", "pipelines"),
                Arguments.of("no hard lifetime", BUNDLED.replace("      maxLifetime: 30m\n", ""), "maxLifetime"),
                Arguments.of("a duration without unit", BUNDLED.replace("size: 1d", "size: 1"), "window.size"),
                Arguments.of("a misspelt field", BUNDLED.replace("    allowedLateness: 2m\n    incomplete:\n      policy: fire-partial\n"
                        + "    aggregations:\n      - {name: alerts", "    allowedLatenes: 2m\n    incomplete:\n      policy: fire-partial\n"
                        + "    aggregations:\n      - {name: alerts"), "allowedLatenes"),
                Arguments.of("two pipelines of one name", BUNDLED.replace("name: alert-storm-sns", "name: alert-storm"), "alert-storm"),
                Arguments.of("a key that is not a path", BUNDLED.replace("key: [$.jobId, $.runId]", "key: [jobId, $.runId]"), "key"),
                Arguments.of("an unknown envelope", BUNDLED.replace("envelope: raw", "envelope: kafka"), "envelope"),
                Arguments.of("an unknown incomplete policy", BUNDLED.replace("policy: hold", "policy: wait"), "incomplete.policy"),
                Arguments.of("problems in two sections, found in one pass", BUNDLED.replace("countsAsEvent: false", "countsAsEvent: nope")
                        .replace("cap: 1000, maxValueBytes: 128", "cap: 1000, maxValueBytes: 200"), ": 2 problems"),
                Arguments.of("binary", "\u0000\u0001\u0002fanin\u0003", "pipeline configuration"),
                Arguments.of("an emit target's variable the functions do not have", BUNDLED + "\n  - name: rollups\n    key: [$.jobId]\n"
                        + "    triggers: {maxLifetime: 15m}\n    emit: {sqs: {queueUrl: \"${FANIN_ROLLUP_QUEUE_URL}\"}}\n", "FANIN_ROLLUP_QUEUE_URL"));
    }

    private static SQSBatchResponse ingest(LocalFanin fanin) {
        return new IngestFunction(fanin.runtime).handleRequest(SHARDS, TestContexts.invocation("cfg"));
    }

    private static List<String> pipelines(LocalFanin fanin) {
        return fanin.runtime.engine().config().pipelines().stream().map(PipelineConfig::name).toList();
    }

    private void putObject(String key, String text) {
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(text, StandardCharsets.UTF_8));
    }

    private static String withoutFileUploads() {
        int start = BUNDLED.indexOf("  # Job 2: file uploads");
        int end = BUNDLED.indexOf("  # Job 3: shard completions");
        return BUNDLED.substring(0, start) + BUNDLED.substring(end);
    }

    private static String bundled() {
        try (InputStream in = ExternalConfigTest.class.getClassLoader().getResourceAsStream("fanin/pipelines.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A runtime at the samples' time whose functions read their configuration at {@code location}. */
    private static LocalFanin reading(String prefix, String location) {
        return LocalFanin.start(prefix, SampleEvents.lastSent(SHARDS).plusSeconds(1), Map.of(EnvironmentVariables.CONFIG, location));
    }
}
