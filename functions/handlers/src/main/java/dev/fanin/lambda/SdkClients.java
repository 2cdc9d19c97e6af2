package dev.fanin.lambda;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.appconfigdata.AppConfigDataClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The SDK clients, built once per container with one URL-connection HTTP client (the lightest to start; the Apache
 * and Netty clients are not on the classpath), the region and credentials from the function's environment, and the
 * endpoint override of local runs. The client of the configuration's store (S3, SSM or AppConfig) is built only for
 * the location in use, by {@link #configDocument}.
 */
final class SdkClients implements AutoCloseable {

    private final FunctionSettings settings;
    private final SdkHttpClient http;
    private final AwsCredentialsProvider credentials;
    private final DynamoDbClient dynamoDb;
    private final SqsClient sqs;
    private final EventBridgeClient eventBridge;
    private AutoCloseable configClient;

    private SdkClients(FunctionSettings settings) {
        this.settings = settings;
        this.http = UrlConnectionHttpClient.builder().build();
        this.credentials = settings.credentials()
                .<AwsCredentialsProvider>map(c -> StaticCredentialsProvider.create(credentials(c)))
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
        this.dynamoDb = configure(DynamoDbClient.builder()).build();
        this.sqs = configure(SqsClient.builder()).build();
        this.eventBridge = configure(EventBridgeClient.builder()).build();
    }

    static SdkClients build(FunctionSettings settings) {
        return new SdkClients(settings);
    }

    DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    SqsClient sqs() {
        return sqs;
    }

    EventBridgeClient eventBridge() {
        return eventBridge;
    }

    /** The document at {@code location}, with a client of its store built for it. */
    synchronized ConfigDocument configDocument(ConfigLocation location) {
        switch (location.scheme()) {
            case S3 -> {
                // Local endpoints serve buckets by path, not by host name.
                S3Client s3 = configure(S3Client.builder()).forcePathStyle(settings.endpoint().isPresent()).build();
                configClient = s3;
                return ConfigDocument.s3(s3, location);
            }
            case SSM -> {
                SsmClient ssm = configure(SsmClient.builder()).build();
                configClient = ssm;
                return ConfigDocument.ssm(ssm, location);
            }
            case APPCONFIG -> {
                AppConfigDataClient appConfig = configure(AppConfigDataClient.builder()).build();
                configClient = appConfig;
                return ConfigDocument.appConfig(appConfig, location);
            }
            default -> {
                return ConfigDocument.local(location);
            }
        }
    }

    private static AwsCredentials credentials(FunctionSettings.Credentials c) {
        return c.sessionToken() == null
                ? AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey())
                : AwsSessionCredentials.create(c.accessKeyId(), c.secretAccessKey(), c.sessionToken());
    }

    private <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(B builder) {
        builder.httpClient(http).region(Region.of(settings.region())).credentialsProvider(credentials);
        settings.endpoint().ifPresent(builder::endpointOverride);
        return builder;
    }

    @Override
    public synchronized void close() {
        dynamoDb.close();
        sqs.close();
        eventBridge.close();
        if (configClient != null) {
            try {
                configClient.close();
            } catch (Exception e) {
                // closing is best effort
            }
        }
    }
}
