package dev.fanin.lambda;

import dev.fanin.testkit.LocalAwsEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A pipeline configuration kept in an S3 object on the local endpoint, the way {@code fanin config publish} keeps it,
 * and the {@link LocalFanin} whose functions read it ({@code FANIN_CONFIG=s3://...}): publishing again is a
 * configuration change, which the functions pick up at their next read ({@link LiveConfig#REFRESH}).
 */
final class PublishedConfig {

    /** The pipelines bundled in the jar ({@code classpath:fanin/pipelines.yaml}), the document most tests change. */
    static final String BUNDLED = bundled();

    private final S3Client s3;
    private final String bucket;

    private PublishedConfig(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    /** A fresh bucket for one test class's documents. */
    static PublishedConfig bucket(String name) {
        S3Client s3 = S3Client.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).region(LocalAwsEndpoint.REGION)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("fanin-test", "fanin-test")))
                .endpointOverride(LocalAwsEndpoint.shared().endpoint()).forcePathStyle(true).build();
        String bucket = LocalFanin.prefix(name).toLowerCase() + "bucket";
        s3.createBucket(b -> b.bucket(bucket));
        return new PublishedConfig(s3, bucket);
    }

    /** Publishes {@code yaml} as {@code key} and starts a fanin whose functions read it, on a clock at {@code clock}. */
    LocalFanin start(String name, String key, String yaml, Instant clock) {
        publish(key, yaml);
        return LocalFanin.start(name, clock, Map.of(EnvironmentVariables.CONFIG, location(key)));
    }

    /** Where the functions read {@code key} ({@code FANIN_CONFIG}). */
    String location(String key) {
        return "s3://" + bucket + "/" + key;
    }

    void publish(String key, String yaml) {
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(yaml, StandardCharsets.UTF_8));
    }

    private static String bundled() {
        try (InputStream in = PublishedConfig.class.getClassLoader().getResourceAsStream("fanin/pipelines.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
