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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The three SDK clients, built once per container with one URL-connection HTTP client (the lightest to start; the
 * Apache and Netty clients are not on the classpath), the region and credentials from the function's environment,
 * and the endpoint override of local runs.
 */
record SdkClients(DynamoDbClient dynamoDb, SqsClient sqs, EventBridgeClient eventBridge) implements AutoCloseable {

    static SdkClients build(FunctionSettings settings) {
        SdkHttpClient http = UrlConnectionHttpClient.builder().build();
        AwsCredentialsProvider credentials = settings.credentials()
                .<AwsCredentialsProvider>map(c -> StaticCredentialsProvider.create(credentials(c)))
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
        return new SdkClients(
                configure(DynamoDbClient.builder(), settings, http, credentials).build(),
                configure(SqsClient.builder(), settings, http, credentials).build(),
                configure(EventBridgeClient.builder(), settings, http, credentials).build());
    }

    private static AwsCredentials credentials(FunctionSettings.Credentials c) {
        return c.sessionToken() == null
                ? AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey())
                : AwsSessionCredentials.create(c.accessKeyId(), c.secretAccessKey(), c.sessionToken());
    }

    private static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(
            B builder, FunctionSettings settings, SdkHttpClient http, AwsCredentialsProvider credentials) {
        builder.httpClient(http).region(Region.of(settings.region())).credentialsProvider(credentials);
        settings.endpoint().ifPresent(builder::endpointOverride);
        return builder;
    }

    @Override
    public void close() {
        dynamoDb.close();
        sqs.close();
        eventBridge.close();
    }
}
