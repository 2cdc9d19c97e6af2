package dev.fanin.lambda;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Test-only SDK interceptor (registered for every client of this module's tests, as {@link SdkCallRecorder}): while
 * {@link #down} is set, every write of a pipeline definition to the pipeline history fails as DynamoDB's 500 does.
 */
public final class HistoryWriteOutage implements ExecutionInterceptor {

    static volatile boolean down;

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (down && context.request() instanceof PutItemRequest put && put.item().containsKey("pk")
                && "P#pipelines".equals(put.item().get("pk").s())) {
            throw (DynamoDbException) DynamoDbException.builder().statusCode(500).message("history writes down (test)").build();
        }
    }
}
