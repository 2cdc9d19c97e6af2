package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;

@ExtendWith(LocalAws.class)
class LocalAwsEndpointTest {

    @Test
    void sharedEndpointIsOneInstanceWithClientsBuiltOnce(LocalAwsEndpoint injected, SqsClient sqs, URI uri) {
        assertThat(injected).isSameAs(LocalAwsEndpoint.shared());
        assertThat(sqs).isSameAs(injected.sqs());
        assertThat(injected.dynamoDb()).isSameAs(injected.dynamoDb());
        assertThat(injected.eventBridge()).isSameAs(injected.eventBridge());
        assertThat(uri).isEqualTo(injected.endpoint());
        assertThat(injected.kind()).isIn("env", "localstack", "moto");
    }

    @Test
    void endpointAnswersAllThreeServices(LocalAwsEndpoint endpoint) {
        String queueName = "endpoint-answers-" + System.nanoTime();
        String url = endpoint.sqs().createQueue(r -> r.queueName(queueName)).queueUrl();
        assertThat(endpoint.sqs().listQueues(r -> r.queueNamePrefix(queueName)).queueUrls()).containsExactly(url);
        assertThat(endpoint.dynamoDb().listTables().tableNames()).isNotNull();
        assertThat(endpoint.eventBridge().listEventBuses(r -> { }).eventBuses())
                .anySatisfy(bus -> assertThat(bus.name()).isEqualTo("default"));
    }

    @Test
    void resetWipesMotoState(LocalAwsEndpoint endpoint) {
        assumeTrue(endpoint.kind().equals("moto"), "reset is only promised by moto; this run uses " + endpoint);
        String queueName = "reset-me-" + System.nanoTime();
        endpoint.sqs().createQueue(r -> r.queueName(queueName));

        assertThat(endpoint.reset()).isTrue();

        assertThat(endpoint.sqs().listQueues(r -> r.queueNamePrefix(queueName)).queueUrls()).isEmpty();
    }

    @Test
    void awsEndpointUrlWinsAndIsNeverStarted() {
        try (LocalAwsEndpoint endpoint = LocalAwsEndpoint.start(Map.of("AWS_ENDPOINT_URL", "http://127.0.0.1:1"))) {
            assertThat(endpoint.kind()).isEqualTo("env");
            assertThat(endpoint.endpoint()).isEqualTo(URI.create("http://127.0.0.1:1"));
            assertThat(endpoint.reset()).isFalse(); // nothing listens there
        }
    }

    @Test
    void missingMotoServerFailsWithTheFix(@TempDir Path logs) {
        assertThatThrownBy(() -> LocalAwsEndpoint.startMoto(List.of("no-such-moto-server-binary"), logs))
                .isInstanceOf(NoLocalAwsEndpointException.class)
                .hasMessageStartingWith("no local AWS endpoint: set AWS_ENDPOINT_URL, start Docker for LocalStack,"
                        + " or install moto_server")
                .hasMessageContaining("no-such-moto-server-binary");
    }

    @Test
    void motoServerIsStoppedOnCloseAndLogsToAFile(@TempDir Path logs) {
        MotoServer server = MotoServer.start(MotoServer.DEFAULT_COMMAND, logs);
        try {
            assertThat(MotoReset.answers(server.endpoint(), java.time.Duration.ofSeconds(2))).isTrue();
        } finally {
            server.close();
        }
        assertThat(server.isRunning()).isFalse();
        assertThat(MotoReset.answers(server.endpoint(), java.time.Duration.ofSeconds(1))).isFalse();
        assertThat(server.log()).exists().hasParent(logs);
    }
}
