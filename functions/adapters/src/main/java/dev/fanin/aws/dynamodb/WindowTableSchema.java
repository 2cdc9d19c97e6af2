package dev.fanin.aws.dynamodb;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The table's key schema, for the local runner and tests (template.yaml declares the same for AWS; TTL on
 * {@code ttl} is set there, local backends ignore it). One table, no index: windows, due buckets, counters and
 * watermarks are told apart by their partition key's prefix.
 */
public final class WindowTableSchema {

    private WindowTableSchema() { }

    public static CreateTableRequest createTableRequest(String tableName) {
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        attribute(WindowItemCodec.PK, ScalarAttributeType.S),
                        attribute(WindowItemCodec.SK, ScalarAttributeType.S))
                .keySchema(key(WindowItemCodec.PK, KeyType.HASH), key(WindowItemCodec.SK, KeyType.RANGE))
                .build();
    }

    private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
