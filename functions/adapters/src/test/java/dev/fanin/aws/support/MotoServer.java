package dev.fanin.aws.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * One local AWS endpoint per test JVM: {@code AWS_ENDPOINT_URL} when set, else a {@code moto_server} started on a
 * free loopback port and stopped by a shutdown hook. Stand-in until the shared {@code fanin-testkit LocalAws} lands.
 */
public final class MotoServer {

    private static MotoServer instance;

    private final URI endpoint;

    private MotoServer(URI endpoint) {
        this.endpoint = endpoint;
    }

    public static synchronized MotoServer get() {
        if (instance == null) {
            String configured = System.getenv("AWS_ENDPOINT_URL");
            instance = new MotoServer(configured != null && !configured.isBlank() ? URI.create(configured) : start());
        }
        return instance;
    }

    public URI endpoint() {
        return endpoint;
    }

    public DynamoDbClient dynamoDb() {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials()).httpClientBuilder(UrlConnectionHttpClient.builder()).build();
    }

    public SqsClient sqs() {
        return SqsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials()).httpClientBuilder(UrlConnectionHttpClient.builder()).build();
    }

    public EventBridgeClient eventBridge(software.amazon.awssdk.core.interceptor.ExecutionInterceptor... interceptors) {
        return EventBridgeClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials()).httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(c -> {
                    for (var interceptor : interceptors) {
                        c.addExecutionInterceptor(interceptor);
                    }
                })
                .build();
    }

    private static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing"));
    }

    private static URI start() {
        int port = freePort();
        try {
            Path log = Files.createTempFile("moto-", ".log");
            Process process = new ProcessBuilder("moto_server", "-H", "127.0.0.1", "-p", Integer.toString(port))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
            URI endpoint = URI.create("http://127.0.0.1:" + port);
            Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
            while (Instant.now().isBefore(deadline)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("moto_server exited; see " + log);
                }
                if (answers(endpoint)) {
                    return endpoint;
                }
                Thread.sleep(100);
            }
            process.destroy();
            throw new IllegalStateException("moto_server did not answer within 30 s; see " + log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start moto_server (is it on PATH?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean answers(URI endpoint) {
        try {
            HttpURLConnection connection = (HttpURLConnection) endpoint.resolve("/moto-api/").toURL().openConnection();
            connection.setConnectTimeout(500);
            connection.setReadTimeout(2000);
            return connection.getResponseCode() == 200;
        } catch (IOException notYet) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
