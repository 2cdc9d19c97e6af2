package dev.fanin.aws.support;

import java.net.URI;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Clients of their own (the adapter tests close and decorate them) on the testkit's shared local endpoint.
 */
public final class MotoServer {

    private static MotoServer instance;

    private final URI endpoint;

    private MotoServer(URI endpoint) {
        this.endpoint = endpoint;
    }

    public static synchronized MotoServer get() {
        if (instance == null) {
            // The testkit's shared endpoint: AWS_ENDPOINT_URL, LocalStack, or moto with DynamoDB requests serialised.
            instance = new MotoServer(dev.fanin.testkit.LocalAwsEndpoint.shared().endpoint());
        }
        return instance;
    }

    public URI endpoint() {
        return endpoint;
    }

    public DynamoDbClient dynamoDb(software.amazon.awssdk.core.interceptor.ExecutionInterceptor... interceptors) {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials()).httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(c -> List.of(interceptors).forEach(c::addExecutionInterceptor)).build();
    }

    public SqsClient sqs(software.amazon.awssdk.core.interceptor.ExecutionInterceptor... interceptors) {
        return SqsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials()).httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(c -> List.of(interceptors).forEach(c::addExecutionInterceptor)).build();
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
}
