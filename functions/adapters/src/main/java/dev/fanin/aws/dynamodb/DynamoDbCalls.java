package dev.fanin.aws.dynamodb;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/** The window store's reads and its reading of consumed capacity, shared by its window and live-session halves. */
final class DynamoDbCalls {

    private DynamoDbCalls() { }

    static QueryResponse query(DynamoDbClient dynamo, QueryRequest request, String operation) {
        try {
            return dynamo.query(request);
        } catch (SdkException e) {
            throw DynamoDbFailures.translate(operation, e);
        }
    }

    /** The key to continue a query after {@code page}, or null at its end. */
    static Map<String, AttributeValue> next(QueryResponse page) {
        return page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    }

    static double reported(ConsumedCapacity consumed) {
        return consumed == null || consumed.capacityUnits() == null ? 0 : consumed.capacityUnits();
    }

    static double reported(List<ConsumedCapacity> consumed) {
        return consumed == null ? 0 : consumed.stream().mapToDouble(DynamoDbCalls::reported).sum();
    }
}
