package dev.fanin.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.SSESpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** Creates an {@code AWS::DynamoDB::Table} from its evaluated template properties. */
final class LocalTable {

    private static final Set<String> HONOURED = Set.of("TableName", "BillingMode", "AttributeDefinitions",
            "KeySchema", "GlobalSecondaryIndexes", "LocalSecondaryIndexes", "ProvisionedThroughput",
            "StreamSpecification", "SSESpecification", "TimeToLiveSpecification", "PointInTimeRecoverySpecification");
    /** No local behaviour depends on these. TableName is honoured by being replaced with prefix + logical id. */
    private static final Set<String> NOT_NEEDED_LOCALLY = Set.of("Tags", "DeletionProtectionEnabled",
            "ContributorInsightsSpecification", "TableClass", "ResourcePolicy", "OnDemandThroughput",
            "WarmThroughput", "KinesisStreamSpecification");
    private static final Duration ACTIVE_TIMEOUT = Duration.ofSeconds(30);

    private LocalTable() {
    }

    /** Creates the table, waits until it is ACTIVE, then applies TTL and point-in-time recovery; returns its ARN. */
    static String create(DynamoDbClient dynamoDb, String logicalId, String name, Map<String, Object> properties) {
        PropertyCheck.onlyKnown(logicalId, "AWS::DynamoDB::Table", properties, HONOURED, NOT_NEEDED_LOCALLY);
        String at = logicalId + ".Properties";
        CreateTableRequest.Builder request = CreateTableRequest.builder()
                .tableName(name)
                .attributeDefinitions(maps(properties.get("AttributeDefinitions"), at + ".AttributeDefinitions")
                        .stream().map(d -> AttributeDefinition.builder()
                                .attributeName(text(d, "AttributeName", at))
                                .attributeType(text(d, "AttributeType", at)).build()).toList())
                .keySchema(keySchema(properties.get("KeySchema"), at + ".KeySchema"));
        String billingMode = properties.containsKey("BillingMode")
                ? text(properties, "BillingMode", at) : BillingMode.PROVISIONED.toString();
        request.billingMode(billingMode);
        if (properties.containsKey("ProvisionedThroughput")) {
            request.provisionedThroughput(throughput(properties.get("ProvisionedThroughput"), at));
        }
        if (properties.containsKey("GlobalSecondaryIndexes")) {
            List<GlobalSecondaryIndex> indexes = new ArrayList<>();
            for (Map<String, Object> index : maps(properties.get("GlobalSecondaryIndexes"), at)) {
                GlobalSecondaryIndex.Builder gsi = GlobalSecondaryIndex.builder()
                        .indexName(text(index, "IndexName", at))
                        .keySchema(keySchema(index.get("KeySchema"), at + ".GlobalSecondaryIndexes.KeySchema"))
                        .projection(projection(index.get("Projection"), at));
                if (index.containsKey("ProvisionedThroughput")) {
                    gsi.provisionedThroughput(throughput(index.get("ProvisionedThroughput"), at));
                }
                indexes.add(gsi.build());
            }
            request.globalSecondaryIndexes(indexes);
        }
        if (properties.containsKey("LocalSecondaryIndexes")) {
            request.localSecondaryIndexes(maps(properties.get("LocalSecondaryIndexes"), at).stream()
                    .map(index -> LocalSecondaryIndex.builder()
                            .indexName(text(index, "IndexName", at))
                            .keySchema(keySchema(index.get("KeySchema"), at + ".LocalSecondaryIndexes.KeySchema"))
                            .projection(projection(index.get("Projection"), at)).build())
                    .toList());
        }
        if (properties.get("StreamSpecification") instanceof Map<?, ?> stream) {
            request.streamSpecification(StreamSpecification.builder().streamEnabled(true)
                    .streamViewType(text(stream, "StreamViewType", at)).build());
        }
        if (properties.get("SSESpecification") instanceof Map<?, ?> sse) {
            // A customer-managed KMS key has no local counterpart; encryption on/off is what is reproduced.
            request.sseSpecification(SSESpecification.builder().enabled(flag(sse, "SSEEnabled", at)).build());
        }
        TableDescription created = dynamoDb.createTable(request.build()).tableDescription();
        awaitActive(dynamoDb, name);

        if (properties.get("TimeToLiveSpecification") instanceof Map<?, ?> ttl && flag(ttl, "Enabled", at)) {
            dynamoDb.updateTimeToLive(r -> r.tableName(name).timeToLiveSpecification(
                    t -> t.attributeName(text(ttl, "AttributeName", at)).enabled(true)));
        }
        if (properties.get("PointInTimeRecoverySpecification") instanceof Map<?, ?> pitr
                && flag(pitr, "PointInTimeRecoveryEnabled", at)) {
            dynamoDb.updateContinuousBackups(r -> r.tableName(name).pointInTimeRecoverySpecification(
                    p -> p.pointInTimeRecoveryEnabled(true)));
        }
        return created.tableArn();
    }

    private static void awaitActive(DynamoDbClient dynamoDb, String name) {
        long deadline = System.nanoTime() + ACTIVE_TIMEOUT.toNanos();
        while (dynamoDb.describeTable(r -> r.tableName(name)).table().tableStatus() != TableStatus.ACTIVE) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("table " + name + " not ACTIVE after " + ACTIVE_TIMEOUT);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for table " + name, interrupted);
            }
        }
    }

    private static List<KeySchemaElement> keySchema(Object value, String at) {
        return maps(value, at).stream().map(k -> KeySchemaElement.builder()
                .attributeName(text(k, "AttributeName", at))
                .keyType(text(k, "KeyType", at)).build()).toList();
    }

    private static Projection projection(Object value, String at) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(at + ": an index needs a Projection");
        }
        Projection.Builder projection = Projection.builder().projectionType(text(map, "ProjectionType", at));
        if (map.get("NonKeyAttributes") instanceof List<?> attributes) {
            projection.nonKeyAttributes(attributes.stream().map(String::valueOf).toList());
        }
        return projection.build();
    }

    private static ProvisionedThroughput throughput(Object value, String at) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(at + ": ProvisionedThroughput is a mapping");
        }
        return ProvisionedThroughput.builder()
                .readCapacityUnits(Long.parseLong(text(map, "ReadCapacityUnits", at)))
                .writeCapacityUnits(Long.parseLong(text(map, "WriteCapacityUnits", at))).build();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> maps(Object value, String at) {
        if (!(value instanceof List<?> list) || !list.stream().allMatch(Map.class::isInstance)) {
            throw new IllegalArgumentException(at + ": expected a list of mappings, got " + value);
        }
        return (List<Map<String, Object>>) list;
    }

    private static String text(Map<?, ?> map, String key, String at) {
        Object value = map.get(key);
        if (value == null) {
            throw new IllegalArgumentException(at + ": " + key + " is required");
        }
        return TemplateEvaluator.scalar(value, at + "." + key);
    }

    private static boolean flag(Map<?, ?> map, String key, String at) {
        return Boolean.parseBoolean(text(map, key, at));
    }
}
