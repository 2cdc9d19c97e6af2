package dev.fanin.cli.replay;

import java.util.Set;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * The replay's hook into the SDK clients that {@code FaninRuntime} builds for the real handlers (registered for
 * every client of the JVM through {@code software/amazon/awssdk/global/handlers/execution.interceptors}; inert
 * until a replay configures it):
 * <ul>
 *   <li>Timer messages are sent without their {@code DelaySeconds} (single or batched): the replay reads them from the timer queue at
 *       once and delivers each at its due time on the simulated clock, instead of after a real-time delay.</li>
 *   <li>While an {@link InvocationProbe} is installed (one handler invocation at a time), every call is counted and
 *       may be turned into a {@link SimulatedCrash}.</li>
 * </ul>
 */
public final class ReplayInterceptor implements ExecutionInterceptor {

    private static volatile Set<String> undelayedQueues = Set.of();
    private static volatile InvocationProbe probe;

    /** Required by the SDK's classpath loading. */
    public ReplayInterceptor() {
    }

    static void undelay(Set<String> queueUrls) {
        undelayedQueues = Set.copyOf(queueUrls);
    }

    static void install(InvocationProbe invocationProbe) {
        probe = invocationProbe;
    }

    static void uninstall() {
        probe = null;
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        if (context.request() instanceof SendMessageRequest send && send.delaySeconds() != null
                && send.delaySeconds() > 0 && undelayedQueues.contains(send.queueUrl())) {
            return send.toBuilder().delaySeconds(0).build();
        }
        if (context.request() instanceof SendMessageBatchRequest batch && undelayedQueues.contains(batch.queueUrl())) {
            return batch.toBuilder().entries(batch.entries().stream().map(e -> e.toBuilder().delaySeconds(0).build()).toList()).build();
        }
        return context.request();
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        InvocationProbe current = probe;
        if (current != null) {
            current.beforeCall(operation(attributes));
        }
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        InvocationProbe current = probe;
        if (current != null) {
            current.afterSuccess(operation(attributes));
        }
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        InvocationProbe current = probe;
        if (current != null) {
            current.afterFailure();
        }
    }

    private static String operation(ExecutionAttributes attributes) {
        return attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + "."
                + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    }
}
