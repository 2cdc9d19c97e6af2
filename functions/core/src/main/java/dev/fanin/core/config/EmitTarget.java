package dev.fanin.core.config;

/** Where aggregates go. Names may be {@code ${ENV_VAR}} references, resolved by the adapters at cold start. */
public sealed interface EmitTarget {

    /** EventBridge {@code PutEvents} on {@code busName}, with {@code source} and {@code detailType}. */
    record EventBridge(String busName, String source, String detailType) implements EmitTarget { }

    /** SQS {@code SendMessage}; for a FIFO queue the deduplication id is the aggregate id. */
    record Sqs(String queueUrl, boolean fifo) implements EmitTarget { }
}
