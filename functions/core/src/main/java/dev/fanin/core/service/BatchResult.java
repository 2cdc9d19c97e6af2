package dev.fanin.core.service;

import java.util.List;

/**
 * The outcome of one batch of deliveries: the ids of the messages their input must redeliver (for SQS, reported as batch item failures), and
 * counts by outcome for logs and the local runner.
 */
public record BatchResult(List<String> failedMessageIds, int messages, int eventsAccepted, int duplicates, int late,
                          int tooLate, int deadLettered, int ignored) {

    public BatchResult {
        failedMessageIds = List.copyOf(failedMessageIds);
    }
}
