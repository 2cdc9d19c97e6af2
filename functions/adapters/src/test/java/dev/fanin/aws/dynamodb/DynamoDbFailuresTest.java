package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.window.WindowRef;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

class DynamoDbFailuresTest {

    @Test
    void throttlingAndServerErrorsAreTransientValidationIsNot() {
        assertThat(DynamoDbFailures.translate("load", ProvisionedThroughputExceededException.builder().statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("ProvisionedThroughputExceededException").build()).build()))
                .isInstanceOf(StoreUnavailableException.class);
        assertThat(DynamoDbFailures.translate("load", InternalServerErrorException.builder().statusCode(500)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("InternalServerError").build()).build()))
                .isInstanceOf(StoreUnavailableException.class);
        assertThat(DynamoDbFailures.translate("load", ResourceNotFoundException.builder().statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("ResourceNotFoundException").build()).build()))
                .isInstanceOf(ResourceNotFoundException.class);
    }

    @Test
    void anUnreachableEndpointIsStoreUnavailable() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (DynamoDbClient unreachable = DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + closedPort))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofMillis(500)))
                .overrideConfiguration(c -> c.retryStrategy(b -> b.maxAttempts(1)))
                .build()) {
            DynamoDbWindowStore store = new DynamoDbWindowStore(unreachable, "windows", DynamoDbWindowStore.Settings.defaults());
            assertThatThrownBy(() -> store.load(new WindowRef("alerts", "k", "T1")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("load");
        }
    }
}
