package dev.fanin.testkit;

import java.net.URI;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * JUnit 5 access to the JVM's shared {@link LocalAwsEndpoint}: {@code @ExtendWith(LocalAws.class)}, then declare
 * parameters of type {@link LocalAwsEndpoint}, {@link URI} (the endpoint), {@link DynamoDbClient}, {@link SqsClient}
 * or {@link EventBridgeClient} on test methods, lifecycle methods or constructors. The endpoint is never stopped by
 * the extension (it outlives test classes; a shutdown hook stops it), so use fresh resource names per test.
 * When no backend can run, resolution fails with the reason and the fix; tests are not skipped silently.
 */
public final class LocalAws implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == LocalAwsEndpoint.class || type == URI.class || type == DynamoDbClient.class
                || type == SqsClient.class || type == EventBridgeClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
        Class<?> type = parameter.getParameter().getType();
        if (type == LocalAwsEndpoint.class) {
            return endpoint;
        }
        if (type == URI.class) {
            return endpoint.endpoint();
        }
        if (type == DynamoDbClient.class) {
            return endpoint.dynamoDb();
        }
        if (type == SqsClient.class) {
            return endpoint.sqs();
        }
        if (type == EventBridgeClient.class) {
            return endpoint.eventBridge();
        }
        throw new ParameterResolutionException("LocalAws cannot provide a " + type.getName());
    }
}
