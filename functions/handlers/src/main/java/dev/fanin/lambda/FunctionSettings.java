package dev.fanin.lambda;

import static dev.fanin.lambda.EnvironmentVariables.AWS_ACCESS_KEY_ID;
import static dev.fanin.lambda.EnvironmentVariables.AWS_ENDPOINT_URL;
import static dev.fanin.lambda.EnvironmentVariables.AWS_REGION;
import static dev.fanin.lambda.EnvironmentVariables.AWS_SECRET_ACCESS_KEY;
import static dev.fanin.lambda.EnvironmentVariables.AWS_SESSION_TOKEN;
import static dev.fanin.lambda.EnvironmentVariables.CONFIG;
import static dev.fanin.lambda.EnvironmentVariables.DEAD_LETTER_QUEUE_URL;
import static dev.fanin.lambda.EnvironmentVariables.DEFAULT_CONFIG;
import static dev.fanin.lambda.EnvironmentVariables.DUE_SHARDS;
import static dev.fanin.lambda.EnvironmentVariables.INGEST_TIMEOUT_SECONDS;
import static dev.fanin.lambda.EnvironmentVariables.SWEEP_PARALLELISM;
import static dev.fanin.lambda.EnvironmentVariables.MAX_RECEIVE_COUNT;
import static dev.fanin.lambda.EnvironmentVariables.SIDE_OUTPUT_QUEUE_URL;
import static dev.fanin.lambda.EnvironmentVariables.TABLE_NAME;
import static dev.fanin.lambda.EnvironmentVariables.TIMER_QUEUE_URL;

import dev.fanin.core.port.WindowStore;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The functions' settings read from an environment map (the process environment in Lambda, a map of the local
 * resources in tests and {@code fanin local}). Parsing collects every problem, so one cold start names every
 * missing or malformed variable at once.
 *
 * @param endpoint    {@code AWS_ENDPOINT_URL} when set (local runs); empty in Lambda
 * @param credentials static credentials when the map carries {@code AWS_ACCESS_KEY_ID} and
 *                    {@code AWS_SECRET_ACCESS_KEY} (as Lambda's environment does); empty means the SDK's default chain
 * @param ingestTimeoutSeconds the ingest function's timeout ({@code FANIN_INGEST_TIMEOUT_SECONDS}, 30 when absent)
 * @param sweepParallelism     due-bucket shards a sweep works on at once ({@code FANIN_SWEEP_PARALLELISM}, 8 when absent)
 */
public record FunctionSettings(
        String tableName,
        String configLocation,
        String timerQueueUrl,
        String sideOutputQueueUrl,
        String deadLetterQueueUrl,
        int maxReceiveCount,
        int dueShards,
        int ingestTimeoutSeconds,
        int sweepParallelism,
        String region,
        Optional<URI> endpoint,
        Optional<Credentials> credentials) {

    /** Where the pipeline configuration is read from (validated by {@link #from}). */
    public ConfigLocation config() {
        return ConfigLocation.parse(configLocation);
    }

    /** The template's default {@code IngestTimeout}. */
    public static final int DEFAULT_INGEST_TIMEOUT_SECONDS = 30;

    /** The template's default {@code SweepParallelism}. */
    public static final int DEFAULT_SWEEP_PARALLELISM = 8;

    /** @param sessionToken null for long-term keys */
    public record Credentials(String accessKeyId, String secretAccessKey, String sessionToken) {

        @Override
        public String toString() {
            return "Credentials[accessKeyId=" + accessKeyId + ", secret hidden]";
        }
    }

    /** @throws IllegalStateException naming every missing or malformed variable and how to fix it */
    public static FunctionSettings from(Map<String, String> env) {
        List<String> problems = new ArrayList<>();
        String table = required(env, TABLE_NAME, problems);
        String config = value(env, CONFIG).orElse(DEFAULT_CONFIG);
        try {
            ConfigLocation.parse(config);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        String timers = required(env, TIMER_QUEUE_URL, problems);
        String sideOutput = required(env, SIDE_OUTPUT_QUEUE_URL, problems);
        String deadLetters = required(env, DEAD_LETTER_QUEUE_URL, problems);
        int maxReceiveCount = positiveInt(env, MAX_RECEIVE_COUNT, problems);
        int dueShards = positiveInt(env, DUE_SHARDS, problems);
        if (dueShards > WindowStore.MAX_DUE_SHARDS) {
            problems.add("environment variable " + DUE_SHARDS + " must be at most " + WindowStore.MAX_DUE_SHARDS + ", was \"" + dueShards + "\"");
        }
        int ingestTimeout = value(env, INGEST_TIMEOUT_SECONDS).isEmpty() ? DEFAULT_INGEST_TIMEOUT_SECONDS
                : positiveInt(env, INGEST_TIMEOUT_SECONDS, problems);
        int sweepParallelism = value(env, SWEEP_PARALLELISM).isEmpty() ? DEFAULT_SWEEP_PARALLELISM
                : positiveInt(env, SWEEP_PARALLELISM, problems);
        String region = required(env, AWS_REGION, problems);
        Optional<URI> endpoint = value(env, AWS_ENDPOINT_URL).flatMap(url -> uri(url, problems));
        Optional<Credentials> credentials = Optional.empty();
        if (value(env, AWS_ACCESS_KEY_ID).isPresent() && value(env, AWS_SECRET_ACCESS_KEY).isPresent()) {
            credentials = Optional.of(new Credentials(env.get(AWS_ACCESS_KEY_ID), env.get(AWS_SECRET_ACCESS_KEY),
                    value(env, AWS_SESSION_TOKEN).orElse(null)));
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("fanin cannot start: " + String.join("; ", problems)
                    + " (template.yaml sets the FANIN_ variables on every function; the Lambda service sets AWS_REGION)");
        }
        return new FunctionSettings(table, config, timers, sideOutput, deadLetters, maxReceiveCount, dueShards, ingestTimeout,
                sweepParallelism, region, endpoint, credentials);
    }

    private static Optional<String> value(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }

    private static String required(Map<String, String> env, String name, List<String> problems) {
        Optional<String> v = value(env, name);
        if (v.isEmpty()) {
            problems.add("environment variable " + name + " is not set");
            return null;
        }
        return v.get();
    }

    private static int positiveInt(Map<String, String> env, String name, List<String> problems) {
        String v = required(env, name, problems);
        if (v == null) {
            return 0;
        }
        try {
            // CloudFormation's Number parameters let a deploy pass 16.0; a whole number written so is still one.
            int n = new BigDecimal(v).intValueExact();
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        problems.add("environment variable " + name + " must be a whole number of at least 1, was \"" + v + "\"");
        return 0;
    }

    private static Optional<URI> uri(String url, List<String> problems) {
        try {
            URI uri = new URI(url);
            if (uri.getScheme() != null && uri.getHost() != null) {
                return Optional.of(uri);
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        problems.add("environment variable " + AWS_ENDPOINT_URL + " must be a URL such as http://127.0.0.1:4566, was \"" + url + "\"");
        return Optional.empty();
    }
}
