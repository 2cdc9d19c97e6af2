package dev.fanin.testkit;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A DynamoDB client over another that counts its calls by operation name ({@code GetItem}, {@code BatchGetItem}...)
 * and lets a test answer or fail some of them itself.
 */
public final class CountingDynamoDb {

    /** A test's own answer to a call, or null to pass it on. */
    @FunctionalInterface
    public interface Intercept {
        Object answer(Method method, Object[] args) throws Throwable;
    }

    private CountingDynamoDb() { }

    /** Every call counted and passed on. */
    public static DynamoDbClient over(DynamoDbClient client, Map<String, Long> calls) {
        return over(client, calls, (method, args) -> null);
    }

    public static DynamoDbClient over(DynamoDbClient client, Map<String, Long> calls, Intercept intercept) {
        return (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(), new Class<?>[] {DynamoDbClient.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() != Object.class && !method.getName().equals("close")
                            && !method.getName().startsWith("service")) {
                        String name = method.getName();
                        calls.merge(Character.toUpperCase(name.charAt(0)) + name.substring(1), 1L, Long::sum);
                    }
                    Object answer = intercept.answer(method, args);
                    if (answer != null) {
                        return answer;
                    }
                    try {
                        return method.invoke(client, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
