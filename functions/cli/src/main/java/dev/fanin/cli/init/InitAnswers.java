package dev.fanin.cli.init;

import dev.fanin.core.config.Envelope;
import java.time.Duration;
import java.util.List;

/**
 * What the designer told {@code fanin init}, checked field by field; {@link PipelineDesign} derives the pipeline.
 *
 * @param name              pipeline name
 * @param events            what the events are (prose, for comments)
 * @param action            what the aggregated action does (prose, for comments)
 * @param envelope          how messages reach the queue
 * @param key               the group key
 * @param eventId           path of the event id, null for the SQS message id (or the loader's S3 default)
 * @param eventTime         path of the event time, null for the envelope's default (the SQS sent time for raw)
 * @param peakRate          peak events per second for one key
 * @param incompleteHarmful whether firing on an incomplete batch is harmful (else merely suboptimal)
 * @param grouping          quiet, fixed or overlapping
 * @param quietGap          for quiet grouping
 * @param size              for fixed and overlapping grouping
 * @param slide             for overlapping grouping
 * @param expectedCount     a known batch size, or null
 * @param expectedCountPath the field carrying the batch size, or null
 * @param sentinelPath      the field the end marker is recognised by (with {@code sentinelMatches})
 * @param sentinelMatches   the regex of the end marker, or null
 * @param maxDelay          how far an event may trail the newest one (late, out of order)
 * @param deadline          the latest the aggregate must fire after the batch's first event, or null
 */
public record InitAnswers(
        String name,
        String events,
        String action,
        Envelope envelope,
        List<KeyPart> key,
        String eventId,
        String eventTime,
        double peakRate,
        boolean incompleteHarmful,
        Grouping grouping,
        Duration quietGap,
        Duration size,
        Duration slide,
        Integer expectedCount,
        String expectedCountPath,
        String sentinelPath,
        String sentinelMatches,
        Duration maxDelay,
        Duration deadline) {

    public enum Grouping {
        /** A burst that ends after a quiet period: a session window. */
        QUIET,
        /** Fixed periods: a tumbling window. */
        FIXED,
        /** A moving period refreshed regularly: a sliding window. */
        OVERLAPPING
    }

    public InitAnswers {
        key = List.copyOf(key);
    }

    public boolean knowsCompleteness() {
        return expectedCount != null || expectedCountPath != null || sentinelMatches != null;
    }
}
