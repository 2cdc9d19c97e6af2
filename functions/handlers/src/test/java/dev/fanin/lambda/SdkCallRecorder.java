package dev.fanin.lambda;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * Test-only SDK interceptor (registered for every client of this module's tests through
 * {@code software/amazon/awssdk/global/handlers/execution.interceptors}): records, as IAM actions, the calls made while
 * {@link #as} runs something on behalf of a function, threads it starts included.
 */
public final class SdkCallRecorder implements ExecutionInterceptor {

    private static final InheritableThreadLocal<String> FUNCTION = new InheritableThreadLocal<>();
    private static final Map<String, Set<String>> ACTIONS = new ConcurrentHashMap<>();
    private static final Map<String, String> IAM_PREFIX = Map.of("DynamoDb", "dynamodb", "Sqs", "sqs", "EventBridge", "events",
            "S3", "s3", "Ssm", "ssm", "AppConfigData", "appconfig");

    static <T> T as(String function, java.util.function.Supplier<T> work) {
        FUNCTION.set(function);
        try {
            return work.get();
        } finally {
            FUNCTION.remove();
        }
    }

    /** The IAM actions recorded for {@code function}. */
    static Set<String> actions(String function) {
        return Set.copyOf(ACTIONS.getOrDefault(function, Set.of()));
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        String function = FUNCTION.get();
        if (function == null) {
            return;
        }
        String prefix = IAM_PREFIX.getOrDefault(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME),
                attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME));
        Set<String> into = ACTIONS.computeIfAbsent(function, f -> ConcurrentHashMap.newKeySet());
        SdkRequest request = context.request();
        if (request instanceof TransactWriteItemsRequest transaction) {
            // IAM has no TransactWriteItems action: each item is authorised as its own kind of write.
            for (TransactWriteItem item : transaction.transactItems()) {
                into.add(prefix + ":" + (item.put() != null ? "PutItem" : item.update() != null ? "UpdateItem"
                        : item.delete() != null ? "DeleteItem" : "ConditionCheckItem"));
            }
            return;
        }
        into.add(action(prefix, attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME)));
    }

    /** The IAM action of an operation: SQS's batch operations are authorised as their single-message action. */
    static String action(String prefix, String operation) {
        String name = prefix.equals("sqs") ? operation.replaceFirst("Batch$", "") : operation;
        return prefix + ":" + name;
    }
}
