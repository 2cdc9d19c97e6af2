package dev.fanin.testkit;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A local AWS endpoint for tests and for the {@code fanin local} runner, chosen in this order:
 * <ol>
 *   <li>{@code AWS_ENDPOINT_URL} if set (kind {@code env}: the user runs it, we never stop it);</li>
 *   <li>LocalStack through Testcontainers when a Docker engine answers (kind {@code localstack});</li>
 *   <li>a {@code moto_server} child process on a free loopback port (kind {@code moto}).</li>
 * </ol>
 * {@link #shared()} gives the one instance of this JVM, so a test suite starts at most one server; it is stopped by
 * a shutdown hook. Clients are built once each: URL-connection HTTP client, region us-east-1, static dummy
 * credentials, endpoint override.
 */
public final class LocalAwsEndpoint implements AutoCloseable {

    public static final Region REGION = Region.US_EAST_1;
    private static final AwsBasicCredentials DUMMY_CREDENTIALS = AwsBasicCredentials.create("fanin-local", "fanin-local");

    private static LocalAwsEndpoint shared;

    private final Backend backend;
    private DynamoDbClient dynamoDb;
    private SqsClient sqs;
    private EventBridgeClient eventBridge;
    private boolean closed;

    private LocalAwsEndpoint(Backend backend) {
        this.backend = backend;
    }

    /** The endpoint shared by everything in this JVM, resolved from the process environment on first use. */
    public static synchronized LocalAwsEndpoint shared() {
        if (shared == null) {
            LocalAwsEndpoint resolved = start(System.getenv());
            Runtime.getRuntime().addShutdownHook(new Thread(resolved::close, "fanin-local-aws-close"));
            shared = resolved;
        }
        return shared;
    }

    /**
     * Resolves a new endpoint from {@code environment} (normally {@link System#getenv()}); the caller closes it.
     *
     * @throws NoLocalAwsEndpointException when no backend can run
     */
    public static LocalAwsEndpoint start(Map<String, String> environment) {
        String configured = environment.get("AWS_ENDPOINT_URL");
        if (configured != null && !configured.isBlank()) {
            return new LocalAwsEndpoint(new EnvironmentEndpoint(URI.create(configured.trim())));
        }
        if (DockerEngine.answers()) {
            String image = environment.getOrDefault("FANIN_LOCALSTACK_IMAGE", LocalStackBackend.DEFAULT_IMAGE);
            return new LocalAwsEndpoint(LocalStackBackend.start(image));
        }
        Path logs = defaultLogDirectory();
        return startMoto(MotoServer.preferredCommand(logs), logs);
    }

    /** Starts moto with an explicit command line prefix; package-private so tests can name a missing binary. */
    static LocalAwsEndpoint startMoto(List<String> command, Path logDirectory) {
        return new LocalAwsEndpoint(MotoServer.start(command, logDirectory));
    }

    public URI endpoint() {
        return backend.endpoint();
    }

    /** {@code "env"}, {@code "localstack"} or {@code "moto"}. */
    public String kind() {
        return backend.kind();
    }

    /** See {@link Backend#atomicConditionalWrites()}: whether racing conditional writes behave as DynamoDB's. */
    public boolean atomicConditionalWrites() {
        return backend.atomicConditionalWrites();
    }

    /**
     * Wipes every table, queue and bus on the endpoint where the backend supports it (moto, including a moto named
     * by AWS_ENDPOINT_URL). Returns false, and changes nothing, elsewhere: tests that must run on every backend use
     * fresh resource names instead.
     */
    public boolean reset() {
        return backend.reset();
    }

    public synchronized DynamoDbClient dynamoDb() {
        if (dynamoDb == null) {
            dynamoDb = configure(DynamoDbClient.builder()).build();
        }
        return dynamoDb;
    }

    public synchronized SqsClient sqs() {
        if (sqs == null) {
            sqs = configure(SqsClient.builder()).build();
        }
        return sqs;
    }

    public synchronized EventBridgeClient eventBridge() {
        if (eventBridge == null) {
            eventBridge = configure(EventBridgeClient.builder()).build();
        }
        return eventBridge;
    }

    private <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(B builder) {
        ensureOpen();
        return builder
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(REGION)
                .credentialsProvider(StaticCredentialsProvider.create(DUMMY_CREDENTIALS))
                .endpointOverride(endpoint());
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this LocalAwsEndpoint (" + kind() + " at " + endpoint() + ") is closed");
        }
    }

    /** Closes the clients and stops what this endpoint started; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(dynamoDb, DynamoDbClient::close);
        closeQuietly(sqs, SqsClient::close);
        closeQuietly(eventBridge, EventBridgeClient::close);
        backend.close();
    }

    @Override
    public String toString() {
        return "LocalAwsEndpoint[" + kind() + " " + endpoint() + "]";
    }

    private static <T> void closeQuietly(T client, Consumer<T> close) {
        if (client != null) {
            try {
                close.accept(client);
            } catch (RuntimeException ignored) {
                // Closing is best effort: the process is shutting the endpoint down anyway.
            }
        }
    }

    /** {@code target/} of the current module when running under Maven, else a folder in the temp directory. */
    private static Path defaultLogDirectory() {
        Path target = Path.of("target");
        if (Files.isDirectory(target)) {
            return target.toAbsolutePath();
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "fanin-local-aws");
    }
}
