package dev.fanin.bench;

import java.time.Duration;

/**
 * The receives an SQS event source mapping makes whatever the traffic: Lambda long-polls the queue all the time it is
 * deployed, and SQS bills every {@code ReceiveMessage}, the empty ones too. AWS documents that a mapping scales back to
 * five pollers when traffic is low, and to as few as two unless {@code ScalingConfig.MaximumConcurrency} is set
 * (docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html); it does not publish the wait of each poll, assumed
 * here to be SQS's longest, 20 s. So a mapping makes about {@code pollers x 3} receives a minute on an idle queue.
 * Billed over a run's whole span, as an upper bound: a poller busy with messages polls less often empty, and the
 * receives that return messages are billed beside this (a receive and a delete per batch).
 *
 * @param pollers the pollers the mapping keeps at low traffic
 */
record EventSourcePolls(int pollers) {

    /** The longest wait SQS allows a receive. */
    static final Duration LONG_POLL = Duration.ofSeconds(20);

    /** fanin's ingest mapping: the template caps its concurrency ({@code IngestMaxConcurrency}), so five pollers. */
    static final EventSourcePolls FANIN_INPUT = new EventSourcePolls(5);

    /** fanin's timer mapping: no concurrency cap, so it may scale back to two. */
    static final EventSourcePolls FANIN_TIMERS = new EventSourcePolls(2);

    /**
     * A do-it-yourself design's one mapping: configured as fanin's ingest mapping (the bench batches both alike), so
     * with the same cap and five pollers. Without a cap either side could poll with two.
     */
    static final EventSourcePolls BASELINE = FANIN_INPUT;

    /** The receives the mapping makes over {@code span}, had they all waited the whole long poll. */
    long over(Duration span) {
        return pollers * span.toMillis() / LONG_POLL.toMillis();
    }

    /** fanin's two mappings over {@code span}. */
    static long fanin(Duration span) {
        return FANIN_INPUT.over(span) + FANIN_TIMERS.over(span);
    }
}
