package dev.fanin.core.service;

import java.time.Duration;

/**
 * Operational settings (not per pipeline).
 *
 * @param lease               how long a claimer has to emit and commit before a takeover
 * @param conflictRetries     re-reads after a version conflict before the messages are handed back for redelivery
 * @param maxReceiveCount     the input queue's redrive count: a message failing on its last receive is dead-lettered
 *                            by fanin itself, so that its reason travels with it
 * @param sweepPageSize       due buckets read per page
 * @param sweepMaxWindows     due-bucket entries one sweep run visits at most per shard thread (the rest are listed for
 *                            the next run); the caller's deadline usually stops a run first. The sweeper visits every
 *                            window at least once (its first listing), so this bounds the windows a pipeline may open
 *                            per sweep period
 * @param overdueAfter        a window still due this long after its due time counts as overdue
 * @param flushChainLimit     corrections claimed right after a commit that one flush follows in the same call
 * @param ingestTimeout       the longest an ingest invocation runs (the ingest function's timeout): ingest lists the
 *                            windows of a batch in a due bucket this much (plus a margin for requests in flight) after
 *                            it starts, so that the sweeper never visits them while the invocation may still create
 *                            them ({@code DueCoverage})
 * @param sweepParallelism    due-bucket shards a sweep run works on at once, each on its own thread (1: one after the
 *                            other, as the deterministic simulation needs); the functions set it from
 *                            {@code FANIN_SWEEP_PARALLELISM}
 */
public record FaninSettings(Duration lease, int conflictRetries, int maxReceiveCount, int sweepPageSize, int sweepMaxWindows,
                            Duration overdueAfter, int flushChainLimit, Duration ingestTimeout, int sweepParallelism) {

    public static FaninSettings defaults() {
        return new FaninSettings(Duration.ofSeconds(30), 8, 5, 100, 20_000, Duration.ofMinutes(2), 3, Duration.ofSeconds(30), 1);
    }

    public FaninSettings withSweepParallelism(int shardsAtOnce) {
        if (shardsAtOnce < 1) {
            throw new IllegalArgumentException("sweepParallelism must be at least 1, was " + shardsAtOnce);
        }
        return new FaninSettings(lease, conflictRetries, maxReceiveCount, sweepPageSize, sweepMaxWindows, overdueAfter, flushChainLimit,
                ingestTimeout, shardsAtOnce);
    }

    public FaninSettings withIngestTimeout(Duration timeout) {
        return new FaninSettings(lease, conflictRetries, maxReceiveCount, sweepPageSize, sweepMaxWindows, overdueAfter, flushChainLimit, timeout, sweepParallelism);
    }

    public FaninSettings withMaxReceiveCount(int count) {
        return new FaninSettings(lease, conflictRetries, count, sweepPageSize, sweepMaxWindows, overdueAfter, flushChainLimit, ingestTimeout, sweepParallelism);
    }

    public FaninSettings withSweepMaxWindows(int max) {
        return new FaninSettings(lease, conflictRetries, maxReceiveCount, sweepPageSize, max, overdueAfter, flushChainLimit, ingestTimeout, sweepParallelism);
    }

    public FaninSettings withLease(Duration newLease) {
        return new FaninSettings(newLease, conflictRetries, maxReceiveCount, sweepPageSize, sweepMaxWindows, overdueAfter, flushChainLimit, ingestTimeout, sweepParallelism);
    }
}
