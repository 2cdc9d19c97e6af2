package dev.fanin.aws.dynamodb;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The table's key schema and due index, for the local runner and tests (template.yaml declares the same for AWS;
 * TTL on {@code ttl} is set there, local backends ignore it).
 */
public final class WindowTableSchema {

    public static final String DEFAULT_DUE_INDEX = "due-index";

    private WindowTableSchema() { }

    public static CreateTableRequest createTableRequest(String tableName, String dueIndexName) {
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        attribute(WindowItemCodec.PK, ScalarAttributeType.S),
                        attribute(WindowItemCodec.SK, ScalarAttributeType.S),
                        attribute(WindowItemCodec.DUE_SHARD, ScalarAttributeType.S),
                        attribute(WindowItemCodec.DUE, ScalarAttributeType.N))
                .keySchema(key(WindowItemCodec.PK, KeyType.HASH), key(WindowItemCodec.SK, KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName(dueIndexName)
                        .keySchema(key(WindowItemCodec.DUE_SHARD, KeyType.HASH), key(WindowItemCodec.DUE, KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
                        .build())
                .build();
    }

    private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
