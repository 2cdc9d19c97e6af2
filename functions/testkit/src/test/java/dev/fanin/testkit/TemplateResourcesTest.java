package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Creates the repository's template.yaml on the local endpoint and checks that the template was honoured. */
@ExtendWith(LocalAws.class)
class TemplateResourcesTest {

    private static final AtomicInteger RUN = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static LocalAwsEndpoint endpoint;
    private static LocalResources local;

    @BeforeAll
    static void createFromTemplate(LocalAwsEndpoint shared) {
        endpoint = shared;
        local = TemplateResources.load(TemplateResources.locateTemplate()).createOn(endpoint, uniquePrefix());
    }

    private static String uniquePrefix() {
        return "t" + Long.toString(System.nanoTime(), 36) + RUN.incrementAndGet() + "-";
    }

    @Test
    void tableHasTheTemplatesKeysTtlAndBillingAndNoIndex() {
        TableDescription table = endpoint.dynamoDb().describeTable(r -> r.tableName(local.tableName())).table();

        assertThat(local.tableName()).endsWith("-WindowTable");
        assertThat(table.keySchema()).containsExactly(key("pk", KeyType.HASH), key("sk", KeyType.RANGE));
        assertThat(table.billingModeSummary().billingModeAsString()).isEqualTo("PAY_PER_REQUEST");
        // The sweeper finds windows through due-bucket items in the table itself: no index to pay for.
        assertThat(table.globalSecondaryIndexes()).isEmpty();
        assertThat(table.attributeDefinitions()).extracting(d -> d.attributeName()).containsExactlyInAnyOrder("pk", "sk");

        var ttl = endpoint.dynamoDb().describeTimeToLive(r -> r.tableName(local.tableName())).timeToLiveDescription();
        assertThat(ttl.attributeName()).isEqualTo("ttl");
        assertThat(ttl.timeToLiveStatusAsString()).isEqualTo("ENABLED");
        var backups = endpoint.dynamoDb().describeContinuousBackups(r -> r.tableName(local.tableName()))
                .continuousBackupsDescription().pointInTimeRecoveryDescription();
        assertThat(backups.pointInTimeRecoveryStatusAsString()).isEqualTo("ENABLED");
    }

    @Test
    void inputQueueHasSixTimesTheIngestTimeoutPlusItsWindowAndRedrivesToItsDeadLetterQueue() throws Exception {
        assertThat(local.queueUrls()).containsOnlyKeys("InputQueue", "InputDeadLetterQueue", "TimerQueue",
                "TimerDeadLetterQueue", "LateEventsQueue");
        Map<String, String> input = attributes(local.queueUrl("InputQueue"));
        Map<String, String> deadLetters = attributes(local.queueUrl("InputDeadLetterQueue"));

        assertThat(input.get("VisibilityTimeout")).isEqualTo("200"); // IngestTimeout default 30 s x 6 + 20 s
        JsonNode redrive = JSON.readTree(input.get("RedrivePolicy"));
        assertThat(redrive.get("deadLetterTargetArn").asText()).isEqualTo(deadLetters.get("QueueArn"));
        assertThat(redrive.get("maxReceiveCount").asInt()).isEqualTo(5);
        assertThat(deadLetters.get("MessageRetentionPeriod")).isEqualTo("1209600");

        Map<String, String> timers = attributes(local.queueUrl("TimerQueue"));
        assertThat(JSON.readTree(timers.get("RedrivePolicy")).get("deadLetterTargetArn").asText())
                .isEqualTo(attributes(local.queueUrl("TimerDeadLetterQueue")).get("QueueArn"));
    }

    @Test
    void parametersChangeWhatIsCreated() throws Exception {
        LocalResources tuned = TemplateResources.load(TemplateResources.locateTemplate())
                .withParameter("IngestTimeout", "60")
                .withParameter("MaxReceiveCount", "3")
                .withParameter("IngestMaxBatchingWindowSeconds", "60")
                .createOn(endpoint, uniquePrefix());
        Map<String, String> input = attributes(tuned.queueUrl("InputQueue"));

        assertThat(input.get("VisibilityTimeout")).isEqualTo("660"); // 60 s x 6 + 300 s for a window above 20 s
        assertThat(JSON.readTree(input.get("RedrivePolicy")).get("maxReceiveCount").asInt()).isEqualTo(3);
        assertThat(tuned.functionEnvironment()).containsEntry("FANIN_MAX_RECEIVE_COUNT", "3");
    }

    @Test
    void functionEnvironmentPointsAtTheLocalResources() {
        assertThat(local.functionEnvironment())
                .containsEntry("FANIN_TABLE_NAME", local.tableName())
                .containsEntry("FANIN_EMIT_BUS_NAME", local.busName())
                .containsEntry("FANIN_TIMER_QUEUE_URL", local.queueUrl("TimerQueue"))
                .containsEntry("FANIN_SIDE_OUTPUT_QUEUE_URL", local.queueUrl("LateEventsQueue"))
                .containsEntry("FANIN_DEAD_LETTER_QUEUE_URL", local.queueUrl("InputDeadLetterQueue"))
                .containsEntry("FANIN_CONFIG", "classpath:fanin/pipelines.yaml")
                .containsEntry("FANIN_DUE_SHARDS", "16")
                .containsEntry("FANIN_INGEST_TIMEOUT_SECONDS", "30")
                .containsEntry("FANIN_SWEEP_PARALLELISM", "8")
                .containsEntry("POWERTOOLS_SERVICE_NAME", "fanin");
    }

    @Test
    void eventsPutOnTheBusArriveOnTheTap() throws Exception {
        assertThat(local.busName()).endsWith("-OutputBus");
        var put = endpoint.eventBridge().putEvents(r -> r.entries(e -> e.eventBusName(local.busName())
                .source("fanin").detailType("fanin.aggregate").detail("{\"aggregateId\":\"w1#r0\"}")));
        assertThat(put.failedEntryCount()).isZero();

        var received = endpoint.sqs().receiveMessage(r -> r.queueUrl(local.tapQueueUrl()).waitTimeSeconds(5)
                .maxNumberOfMessages(10)).messages();

        assertThat(received).hasSize(1);
        Message message = received.get(0);
        JsonNode envelope = JSON.readTree(message.body());
        assertThat(envelope.get("detail-type").asText()).isEqualTo("fanin.aggregate");
        assertThat(envelope.get("detail").get("aggregateId").asText()).isEqualTo("w1#r0");
    }

    @Test
    void aTemplatePropertyTheCreatorDoesNotKnowIsRefused() {
        TemplateResources drifted = TemplateResources.parse("""
                Resources:
                  Q:
                    Type: AWS::SQS::Queue
                    Properties:
                      VisibilityTimeout: 30
                      SomethingNew: 1
                """);

        assertThatThrownBy(() -> drifted.createOn(endpoint, uniquePrefix()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Q (AWS::SQS::Queue)")
                .hasMessageContaining("SomethingNew");
    }

    @Test
    void fifoQueuesGetTheirSuffixAndDelayIsHonoured() {
        LocalResources fifo = TemplateResources.parse("""
                Resources:
                  Table:
                    Type: AWS::DynamoDB::Table
                    Properties:
                      BillingMode: PAY_PER_REQUEST
                      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]
                      KeySchema: [{ AttributeName: pk, KeyType: HASH }]
                  Bus: { Type: AWS::Events::EventBus, Properties: { Name: ignored } }
                  Out:
                    Type: AWS::SQS::Queue
                    Properties: { FifoQueue: true, ContentBasedDeduplication: false }
                  Later:
                    Type: AWS::SQS::Queue
                    Properties: { DelaySeconds: 7 }
                """).createOn(endpoint, uniquePrefix());

        assertThat(fifo.queueUrl("Out")).endsWith("-Out.fifo");
        assertThat(attributes(fifo.queueUrl("Out"))).containsEntry("FifoQueue", "true");
        assertThat(attributes(fifo.queueUrl("Later"))).containsEntry("DelaySeconds", "7");
        assertThat(fifo.busName()).endsWith("-Bus");
    }

    private static Map<String, String> attributes(String queueUrl) {
        return endpoint.sqs().getQueueAttributes(r -> r.queueUrl(queueUrl).attributeNames(QueueAttributeName.ALL))
                .attributesAsStrings();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
