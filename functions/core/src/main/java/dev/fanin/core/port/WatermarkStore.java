package dev.fanin.core.port;

import dev.fanin.core.watermark.Backlog;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

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

    /**
     * Joins {@code backlog} into this writer's backlog evidence: the shard then holds {@link Backlog#joined} of what it
     * held and {@code backlog}, atomically. Writers sharing a shard may each have read it before the other wrote, so
     * a plain replace would lose the older frontier of one of them (and the watermark would pass events still queued).
     */
    void recordBacklog(String pipeline, Backlog backlog, Duration idleAfter);

    /**
     * @param backlogs each shard's latest backlog evidence (a shard that never saw one has none); which of them still
     *                 hold is the core's decision ({@link Backlog#inForce})
     */
    record Reading(Instant maxEventTime, Instant lastArrival, List<Backlog> backlogs) {

        public Reading {
            backlogs = List.copyOf(backlogs);
        }

        public Reading(Instant maxEventTime, Instant lastArrival) {
            this(maxEventTime, lastArrival, List.of());
        }
    }
}
