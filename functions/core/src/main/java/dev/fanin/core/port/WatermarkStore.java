package dev.fanin.core.port;

import java.time.Instant;

/**
 * The pipeline's watermark inputs, stored sharded so that concurrent ingest invocations do not contend on one item.
 * The watermark itself is computed by the core from a {@link Reading} and the current processing time.
 */
public interface WatermarkStore {

    /** The newest event time and the latest arrival over all shards; EPOCH for a pipeline that saw nothing. */
    Reading read(String pipeline);

    /**
     * Raises this writer's shard to at least these values (never lowers it). Implementations may skip writes that
     * would advance by less than their granularity; the core's formula tolerates that lag.
     */
    void advance(String pipeline, Instant maxEventTime, Instant lastArrival);

    record Reading(Instant maxEventTime, Instant lastArrival) { }
}
