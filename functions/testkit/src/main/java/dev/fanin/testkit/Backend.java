package dev.fanin.testkit;

import java.net.URI;

/** One running (or externally provided) AWS-compatible endpoint. Implementations own what they started. */
interface Backend extends AutoCloseable {

    URI endpoint();

    /** "env", "localstack" or "moto". */
    String kind();

    /**
     * Whether two conditional writes racing on one item can never both apply, as in DynamoDB. True for LocalStack and
     * real endpoints; for moto only when its DynamoDB requests are serialised by the testkit's launcher.
     */
    default boolean atomicConditionalWrites() {
        return true;
    }

    /** Wipes all state if the backend can; returns whether it did. */
    boolean reset();

    /** Stops what this backend started; idempotent; never throws. */
    @Override
    void close();
}
