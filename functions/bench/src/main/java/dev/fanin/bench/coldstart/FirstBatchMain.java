package dev.fanin.bench.coldstart;

import dev.fanin.aws.RoutingEmitter;
import dev.fanin.aws.dynamodb.DynamoDbWatermarkStore;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.eventbridge.EventBridgeEmitter;
import dev.fanin.aws.sqs.SqsDeadLetters;
import dev.fanin.aws.sqs.SqsEmitter;
import dev.fanin.aws.sqs.SqsSideOutput;
import dev.fanin.aws.sqs.SqsWindowTimers;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The cold-start probe, run in a fresh JVM on the classpath of the shaded functions jar: what the ingest function's
 * initialisation does (clients with the URL-connection HTTP client, the bundled configuration, the adapters, the
 * engine) and then one SQS batch of ten alert messages through {@link IngestService}, against the endpoint in
 * {@code AWS_ENDPOINT_URL} and the resources named by the {@code FANIN_*} variables of template.yaml. Prints one
 * line: milliseconds from JVM start to the end of initialisation and to the first batch handled. Until the handlers
 * module has its {@code IngestFunction}, this probe stands in for it with the same services, adapters and clients.
 */
public final class FirstBatchMain {

    private FirstBatchMain() { }

    public static void main(String[] args) {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        URI endpoint = URI.create(System.getenv("AWS_ENDPOINT_URL"));
        StaticCredentialsProvider credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
        DynamoDbClient dynamo = DynamoDbClient.builder().httpClient(UrlConnectionHttpClient.create()).region(Region.US_EAST_1)
                .credentialsProvider(credentials).endpointOverride(endpoint).build();
        SqsClient sqs = SqsClient.builder().httpClient(UrlConnectionHttpClient.create()).region(Region.US_EAST_1)
                .credentialsProvider(credentials).endpointOverride(endpoint).build();
        EventBridgeClient events = EventBridgeClient.builder().httpClient(UrlConnectionHttpClient.create()).region(Region.US_EAST_1)
                .credentialsProvider(credentials).endpointOverride(endpoint).build();
        FaninConfig config = ConfigLoader.loadBundled();
        String table = System.getenv("FANIN_TABLE_NAME");
        FaninPorts ports = new FaninPorts(
                new DynamoDbWindowStore(dynamo, table, DynamoDbWindowStore.Settings.defaults()),
                new DynamoDbWatermarkStore(dynamo, table, DynamoDbWatermarkStore.Settings.defaults()),
                new RoutingEmitter(config, new EventBridgeEmitter(events, config, System::getenv), new SqsEmitter(sqs, config, System::getenv)),
                new SqsWindowTimers(sqs, System.getenv("FANIN_TIMER_QUEUE_URL")),
                new SqsSideOutput(sqs, System.getenv("FANIN_SIDE_OUTPUT_QUEUE_URL")),
                new SqsDeadLetters(sqs, System.getenv("FANIN_DEAD_LETTER_QUEUE_URL")),
                Metrics.NONE);
        IngestService ingest = new IngestService(new FaninEngine(config, ports, FaninSettings.defaults(), Clock.systemUTC()));
        long initialised = System.currentTimeMillis();
        BatchResult result = ingest.handle(batch(Instant.now()));
        long handled = System.currentTimeMillis();
        System.out.printf("init_ms=%d first_batch_ms=%d accepted=%d failed=%d%n", initialised - jvmStart, handled - jvmStart,
                result.eventsAccepted(), result.failedMessageIds().size());
    }

    private static List<InboundMessage> batch(Instant now) {
        List<InboundMessage> messages = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String body = "{\"version\":\"0\",\"id\":\"cold-" + now.toEpochMilli() + "-" + i + "\",\"detail-type\":\"Resource Alert\","
                    + "\"source\":\"custom.alerts\",\"account\":\"111122223333\",\"time\":\"" + now + "\",\"region\":\"eu-west-1\","
                    + "\"resources\":[],\"detail\":{\"service\":\"svc-" + (i % 3) + "\",\"resource\":\"i-" + i + "\",\"severity\":\"HIGH\"}}";
            messages.add(new InboundMessage("cold-" + i, body, Map.of(InboundMessage.SENT_TIMESTAMP, Long.toString(now.toEpochMilli())), now));
        }
        return messages;
    }
}
