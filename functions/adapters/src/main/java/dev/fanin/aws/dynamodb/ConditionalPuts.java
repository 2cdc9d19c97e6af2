package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.VERSION;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;

import java.util.Map;
import java.util.OptionalDouble;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The two conditions every versioned item of the window table is written under: created only where none is
 * ({@code attribute_not_exists(#pk)}: a head, a live item, a sealed slice), replaced only over the version read
 * ({@code #ver = :expected}). A failed condition is a conflict the caller returns, never an error it throws.
 */
final class ConditionalPuts {

    static final String CREATE_CONDITION = "attribute_not_exists(#pk)";
    static final String VERSION_CONDITION = "#ver = :expected";

    private ConditionalPuts() {
    }

    static PutItemRequest create(String table, Map<String, AttributeValue> item) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(item)
                .conditionExpression(CREATE_CONDITION)
                .expressionAttributeNames(Map.of("#pk", PK))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    static PutItemRequest replace(String table, Map<String, AttributeValue> item, long expectedVersion) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(item)
                .conditionExpression(VERSION_CONDITION)
                .expressionAttributeNames(Map.of("#ver", VERSION))
                .expressionAttributeValues(Map.of(":expected", n(expectedVersion)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** Created when {@code expectedVersion} is 0 (nothing stored yet), else replaced over it. */
    static PutItemRequest write(String table, Map<String, AttributeValue> item, long expectedVersion) {
        return expectedVersion == 0 ? create(table, item) : replace(table, item, expectedVersion);
    }

    /**
     * Sends one conditional put and tells {@code costs} what it cost.
     *
     * @param sizeBased the write units by the items' sizes, for when DynamoDB reports none
     * @return the write units the put cost (DynamoDB's figure, else {@code sizeBased}), or empty when the condition failed
     * @throws dev.fanin.core.port.StoreUnavailableException on a transient failure (see {@link DynamoDbFailures})
     */
    static OptionalDouble send(DynamoDbClient dynamo, PutItemRequest request, String operation, double sizeBased, WriteCostListener costs) {
        double reported;
        try {
            reported = DynamoDbCalls.reported(dynamo.putItem(request).consumedCapacity());
        } catch (ConditionalCheckFailedException conflict) {
            return OptionalDouble.empty();
        } catch (SdkException e) {
            throw DynamoDbFailures.translate(operation, e);
        }
        costs.onWrite(operation, reported, sizeBased);
        return OptionalDouble.of(reported > 0 ? reported : sizeBased);
    }
}
