package dev.fanin.core.service;

import java.time.Duration;

/**
 * Operational settings (not per pipeline).
 *
 * @param lease               how long a claimer has to emit and commit before a takeover
 * @param conflictRetries     re-reads after a version conflict before the messages are handed back to SQS
 * @param maxReceiveCount     the input queue's redrive count: a message failing on its last receive is dead-lettered
 *                            by fanin itself, so that its reason travels with it
 * @param sweepPageSize       due-index page size
 * @param sweepMaxWindows     windows one sweep run handles at most (the rest wait for the next run)
 * @param overdueAfter        a window still due this long after its due time counts as overdue
 * @param flushChainLimit     corrections claimed right after a commit that one flush follows in the same call
 */
public record FaninSettings(Duration lease, int conflictRetries, int maxReceiveCount, int sweepPageSize, int sweepMaxWindows,
                            Duration overdueAfter, int flushChainLimit) {

    public static FaninSettings defaults() {
        return new FaninSettings(Duration.ofSeconds(30), 8, 5, 100, 2_000, Duration.ofMinutes(2), 3);
    }

    public FaninSettings withMaxReceiveCount(int count) {
        return new FaninSettings(lease, conflictRetries, count, sweepPageSize, sweepMaxWindows, overdueAfter, flushChainLimit);
    }

    public FaninSettings withSweepMaxWindows(int max) {
        return new FaninSettings(lease, conflictRetries, maxReceiveCount, sweepPageSize, max, overdueAfter, flushChainLimit);
    }

    public FaninSettings withLease(Duration newLease) {
        return new FaninSettings(newLease, conflictRetries, maxReceiveCount, sweepPageSize, sweepMaxWindows, overdueAfter, flushChainLimit);
    }
}
