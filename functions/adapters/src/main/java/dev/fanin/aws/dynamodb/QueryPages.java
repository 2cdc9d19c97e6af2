package dev.fanin.aws.dynamodb;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/** Every item a {@code Query} finds, page after page, for the small partitions read whole. */
final class QueryPages {

    private QueryPages() {
    }

    /** @param operation what the read is for, in the message of a failure */
    static List<Map<String, AttributeValue>> all(DynamoDbClient dynamo, QueryRequest request, String operation) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page;
            try {
                page = dynamo.query(request.toBuilder().exclusiveStartKey(start).build());
            } catch (SdkException e) {
                throw DynamoDbFailures.translate(operation, e);
            }
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }
}
