package dev.fanin.core.port;

import java.util.List;

/**
 * Sends aggregate events downstream. Partial failure is normal: each request gets its own result, in order.
 * Emission is at-least-once; the aggregate id lets consumers recognise a repeat.
 */
public interface AggregateEmitter {

    List<Result> emit(List<Request> requests);

    /**
     * @param aggregateId stable id of the window revision (dedupe id for FIFO targets)
     * @param pipeline    pipeline name, so the adapter picks the pipeline's target
     * @param detailJson  the aggregate event JSON (validated against {@code schemas/aggregate-v1.json})
     */
    record Request(String aggregateId, String pipeline, String detailJson) { }

    /** @param error null when sent; else the target's error code and message */
    record Result(String aggregateId, boolean sent, String error) { }
}
